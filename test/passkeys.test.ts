/**
 * Passkeys (docs/domain.md, Accounts: two factors; decision 036), with real WebAuthn answers made
 * by a software authenticator (test/support/soft-authenticator.ts): registration, the login's
 * second step by passkey, "Sign in with a passkey" without email or password, the origin checked
 * exactly, challenges used once, the counter rule, another user's credential refused, removal (the
 * last factor needs a confirmation), a passkey satisfying REQUIRE_2FA_FOR_ADMINS, the failure
 * throttle, and an admin's reset of a lost second factor.
 */
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { auditEvents, sessions, userPasskeys, webauthnChallenges } from '../src/server/db/schema';
import { AUDIT_ACTIONS } from '../src/shared/contracts/audit';
import { TWO_FACTOR_SETUP_REQUIRED } from '../src/shared/contracts/auth';
import { SoftAuthenticator } from './support/soft-authenticator';
import { loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const PUBLIC_URL = 'https://portal.example.test';
const ctx = setupTestApp({ PUBLIC_URL });
const db = () => ctx.database.db;

/** A browser: keeps every cookie the server sets (the session's and the pending login's). */
class Browser {
  cookies = new Map<string, string>();
  async request(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res: LightMyRequestResponse = await ctx.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });
    for (const c of res.cookies) {
      if (c.value) this.cookies.set(c.name, c.value);
      else this.cookies.delete(c.name);
    }
    return res;
  }
}

/** An agent signed in (a Browser), with its own authenticator. */
async function agent() {
  const a = await registerAgent(ctx.app);
  const browser = new Browser();
  const login = await browser.request('POST', '/api/auth/login', {
    email: a.email,
    password: a.password,
  });
  expect(login.statusCode, login.body).toBe(200);
  return { ...a, browser, authenticator: new SoftAuthenticator(PUBLIC_URL) };
}

type Agent = Awaited<ReturnType<typeof agent>>;

/** A passkey made by the agent's authenticator (or another one, a security key say). */
async function addPasskey(who: Agent, name = 'Laptop', authenticator = who.authenticator) {
  const options = await who.browser.request('POST', '/api/auth/2fa/passkeys/register/options');
  expect(options.statusCode, options.body).toBe(200);
  const { response, credential } = authenticator.register(options.json());
  const res = await who.browser.request('POST', '/api/auth/2fa/passkeys/register', {
    name,
    response,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { passkey: res.json() as { id: number; name: string }, credential };
}

/** The password step: a fresh browser with the pending login's cookie. */
async function passwordStep(who: { email: string; password: string }) {
  const browser = new Browser();
  const res = await browser.request('POST', '/api/auth/login', {
    email: who.email,
    password: who.password,
  });
  return { browser, res };
}

async function auditRows(action: string, targetId: number) {
  return db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.targetId, String(targetId))));
}

describe('registering a passkey', () => {
  it('keeps a named passkey of the signed-in user, lists it, and counts it as two factors on', async () => {
    const a = await agent();
    const options = (
      await a.browser.request('POST', '/api/auth/2fa/passkeys/register/options')
    ).json();
    expect(options).toMatchObject({
      rp: { id: 'portal.example.test', name: 'LeadFlow' },
      user: { name: a.email },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const { response } = a.authenticator.register(options);
    const res = await a.browser.request('POST', '/api/auth/2fa/passkeys/register', {
      name: '  Work laptop ',
      response,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Work laptop', lastUsedAt: null });
    const list = (await a.browser.request('GET', '/api/auth/2fa/passkeys')).json();
    expect(list.passkeys).toHaveLength(1);
    expect(list.passkeys[0]).toMatchObject({ name: 'Work laptop', lastUsedAt: null });
    expect((await a.browser.request('GET', '/api/auth/2fa')).json()).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
      passkeys: 1,
    });
    // the next options exclude it, so the authenticator will not make a second one
    const next = (
      await a.browser.request('POST', '/api/auth/2fa/passkeys/register/options')
    ).json();
    expect(next.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([response.id]);
    // the same registration answer again: its challenge is gone
    const replay = await a.browser.request('POST', '/api/auth/2fa/passkeys/register', {
      name: 'Again',
      response,
    });
    expect(replay.statusCode).toBe(400);
    expect(await auditRows(AUDIT_ACTIONS.passkeyAdded, a.id)).toHaveLength(1);
    // another user cannot rename or remove it
    const b = await agent();
    const id = list.passkeys[0].id;
    expect(
      (await b.browser.request('PATCH', `/api/auth/2fa/passkeys/${id}`, { name: 'x' })).statusCode,
    ).toBe(404);
    expect((await b.browser.request('DELETE', `/api/auth/2fa/passkeys/${id}`)).statusCode).toBe(
      404,
    );
    const renamed = await a.browser.request('PATCH', `/api/auth/2fa/passkeys/${id}`, {
      name: 'Desk',
    });
    expect(renamed.json()).toMatchObject({ id, name: 'Desk' });
  });

  it('refuses an answer made on another origin, or to another user’s challenge', async () => {
    const a = await agent();
    const options = (
      await a.browser.request('POST', '/api/auth/2fa/passkeys/register/options')
    ).json();
    const evil = a.authenticator.register(options, {
      origin: 'https://portal.example.test.evil.com',
    });
    const res = await a.browser.request('POST', '/api/auth/2fa/passkeys/register', {
      name: 'Phished',
      response: evil.response,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This passkey could not be verified');
    const b = await agent();
    const options2 = (
      await a.browser.request('POST', '/api/auth/2fa/passkeys/register/options')
    ).json();
    const made = b.authenticator.register(options2);
    const theirs = await b.browser.request('POST', '/api/auth/2fa/passkeys/register', {
      name: 'Not mine',
      response: made.response,
    });
    expect(theirs.statusCode).toBe(400);
    expect(
      await db().select().from(userPasskeys).where(eq(userPasskeys.userId, b.id)),
    ).toHaveLength(0);
  });
});

describe('a passkey as the second factor after the password', () => {
  it('answers twoFactorRequired with the passkey method and no session; the assertion then signs in', async () => {
    const a = await agent();
    await addPasskey(a);
    const { browser, res } = await passwordStep(a);
    expect(res.json()).toEqual({
      twoFactorRequired: true,
      methods: { totp: false, passkey: true },
    });
    expect(res.cookies.find((c) => c.name === 'lf_session')).toBeUndefined();
    expect((await browser.request('GET', '/api/auth/me')).statusCode).toBe(401);
    const options = await browser.request('POST', '/api/auth/2fa/passkeys/verify/options');
    expect(options.statusCode, options.body).toBe(200);
    expect(options.json().allowCredentials.map((c: { id: string }) => c.id)).toEqual([
      a.authenticator.credentials[0]?.id,
    ]);
    const assertion = a.authenticator.assert(options.json());
    const verified = await browser.request('POST', '/api/auth/2fa/passkeys/verify', {
      response: assertion,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().user).toMatchObject({ id: a.id, email: a.email });
    expect((await browser.request('GET', '/api/auth/me')).statusCode).toBe(200);
    expect(browser.cookies.has('lf_2fa')).toBe(false);
    const [row] = await db().select().from(userPasskeys).where(eq(userPasskeys.userId, a.id));
    expect(row?.counter).toBe(1);
    expect(row?.lastUsedAt).not.toBeNull();
    const logins = await auditRows(AUDIT_ACTIONS.login, a.id);
    expect(logins.some((e) => (e.after as { method?: string })?.method === 'passkey')).toBe(true);

    // the same assertion on a new pending login: its challenge was used, refused
    const second = await passwordStep(a);
    const replay = await second.browser.request('POST', '/api/auth/2fa/passkeys/verify', {
      response: assertion,
    });
    expect(replay.statusCode).toBe(400);
    expect((await second.browser.request('GET', '/api/auth/me')).statusCode).toBe(401);
  });

  it("refuses another user's credential, a counter that did not grow, and a challenge of another ceremony", async () => {
    const a = await agent();
    const b = await agent();
    await addPasskey(a);
    await addPasskey(b);
    const { browser } = await passwordStep(b);
    // B's pending login asks for B's passkeys; A's authenticator signs B's challenge with A's key
    const options = (await browser.request('POST', '/api/auth/2fa/passkeys/verify/options')).json();
    const foreign = a.authenticator.assert(options, { credential: a.authenticator.credentials[0] });
    const refused = await browser.request('POST', '/api/auth/2fa/passkeys/verify', {
      response: foreign,
    });
    expect(refused.statusCode).toBe(400);
    expect((await browser.request('GET', '/api/auth/me')).statusCode).toBe(401);

    // B's own passkey, used once (counter 1), then a cloned key reporting 1 again
    const ok = await passwordStep(b);
    const o1 = (await ok.browser.request('POST', '/api/auth/2fa/passkeys/verify/options')).json();
    const good = await ok.browser.request('POST', '/api/auth/2fa/passkeys/verify', {
      response: b.authenticator.assert(o1),
    });
    expect(good.statusCode, good.body).toBe(200);
    const clone = await passwordStep(b);
    const o2 = (
      await clone.browser.request('POST', '/api/auth/2fa/passkeys/verify/options')
    ).json();
    const stale = await clone.browser.request('POST', '/api/auth/2fa/passkeys/verify', {
      response: b.authenticator.assert(o2, { counter: 1 }),
    });
    expect(stale.statusCode).toBe(400);

    // a usernameless sign-in's challenge is not a second step's
    const other = await passwordStep(b);
    const loginOptions = (
      await new Browser().request('POST', '/api/auth/2fa/passkeys/login/options')
    ).json();
    const wrongPurpose = await other.browser.request('POST', '/api/auth/2fa/passkeys/verify', {
      response: b.authenticator.assert(loginOptions),
    });
    expect(wrongPurpose.statusCode).toBe(400);
    // without a pending login there is nothing to finish
    expect(
      (await new Browser().request('POST', '/api/auth/2fa/passkeys/verify/options')).statusCode,
    ).toBe(401);
  });

  it('with TOTP too, the login offers both, and either finishes it', async () => {
    const a = await agent();
    const setup = (await a.browser.request('POST', '/api/auth/2fa/totp/setup')).json();
    const enable = await a.browser.request('POST', '/api/auth/2fa/totp/enable', {
      code: await generate({ secret: setup.secret }),
    });
    expect(enable.statusCode, enable.body).toBe(200);
    await addPasskey(a);
    const { browser, res } = await passwordStep(a);
    expect(res.json()).toEqual({ twoFactorRequired: true, methods: { totp: true, passkey: true } });
    const options = (await browser.request('POST', '/api/auth/2fa/passkeys/verify/options')).json();
    const verified = await browser.request('POST', '/api/auth/2fa/passkeys/verify', {
      response: a.authenticator.assert(options),
    });
    expect(verified.statusCode, verified.body).toBe(200);
  });
});

describe('Sign in with a passkey (no email, no password)', () => {
  it('names its user by the passkey and opens a session, with user verification required', async () => {
    const a = await agent();
    await addPasskey(a);
    const browser = new Browser();
    const options = await browser.request('POST', '/api/auth/2fa/passkeys/login/options');
    expect(options.statusCode).toBe(200);
    expect(options.json()).toMatchObject({
      rpId: 'portal.example.test',
      userVerification: 'required',
    });
    expect(options.json().allowCredentials ?? []).toEqual([]);
    // without user verification it is one factor only: refused
    const noUv = await browser.request('POST', '/api/auth/2fa/passkeys/login', {
      response: a.authenticator.assert(options.json(), { userVerified: false }),
    });
    expect(noUv.statusCode).toBe(400);
    const fresh = (await browser.request('POST', '/api/auth/2fa/passkeys/login/options')).json();
    const res = await browser.request('POST', '/api/auth/2fa/passkeys/login', {
      response: a.authenticator.assert(fresh),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ id: a.id, email: a.email, role: 'AGENT' });
    const me = await browser.request('GET', '/api/auth/me');
    expect(me.json()).toMatchObject({ id: a.id });
  });

  it('refuses an assertion made on another origin, a replayed one, and a disabled account', async () => {
    const a = await agent();
    await addPasskey(a);
    const browser = new Browser();
    const options = (await browser.request('POST', '/api/auth/2fa/passkeys/login/options')).json();
    const phished = await browser.request('POST', '/api/auth/2fa/passkeys/login', {
      response: a.authenticator.assert(options, { origin: 'http://portal.example.test' }),
    });
    expect(phished.statusCode).toBe(400);
    expect(browser.cookies.has('lf_session')).toBe(false);
    // its challenge is gone with that try, even with a right answer
    const again = await browser.request('POST', '/api/auth/2fa/passkeys/login', {
      response: a.authenticator.assert(options),
    });
    expect(again.statusCode).toBe(400);
    const o2 = (await browser.request('POST', '/api/auth/2fa/passkeys/login/options')).json();
    const assertion = a.authenticator.assert(o2);
    expect(
      (await browser.request('POST', '/api/auth/2fa/passkeys/login', { response: assertion }))
        .statusCode,
    ).toBe(200);
    const replay = await new Browser().request('POST', '/api/auth/2fa/passkeys/login', {
      response: assertion,
    });
    expect(replay.statusCode).toBe(400);
    // a user handle other than the passkey's is refused
    const o3 = (await browser.request('POST', '/api/auth/2fa/passkeys/login/options')).json();
    const swapped = await browser.request('POST', '/api/auth/2fa/passkeys/login', {
      response: a.authenticator.assert(o3, { userHandle: 'AAAA' }),
    });
    expect(swapped.statusCode).toBe(400);

    const admin = await loginAdmin(ctx);
    expect(
      (await admin.client.patch(`/api/admin/users/${a.id}`, { disabled: true })).statusCode,
    ).toBe(200);
    const o4 = (await browser.request('POST', '/api/auth/2fa/passkeys/login/options')).json();
    const disabled = await new Browser().request('POST', '/api/auth/2fa/passkeys/login', {
      response: a.authenticator.assert(o4),
    });
    expect(disabled.statusCode).toBe(403);
    expect(disabled.json().message).toBe('This account is disabled');
  });

  it('throttles failed assertions per account: the sixth is 429, a right one included', async () => {
    const a = await agent();
    const { credential } = await addPasskey(a);
    const browser = new Browser();
    for (let i = 0; i < 5; i++) {
      const o = (await browser.request('POST', '/api/auth/2fa/passkeys/login/options')).json();
      const bad = await browser.request('POST', '/api/auth/2fa/passkeys/login', {
        response: a.authenticator.assert(o, { origin: 'https://evil.example', credential }),
      });
      expect(bad.statusCode).toBe(i < 5 ? 400 : 429);
    }
    const o = (await browser.request('POST', '/api/auth/2fa/passkeys/login/options')).json();
    const locked = await browser.request('POST', '/api/auth/2fa/passkeys/login', {
      response: a.authenticator.assert(o),
    });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('removing a passkey', () => {
  it('needs a passkey confirmation when it is the last second factor; not while another is left', async () => {
    const a = await agent();
    const first = await addPasskey(a, 'Phone');
    const second = await addPasskey(a, 'Key', new SoftAuthenticator(PUBLIC_URL));
    const gone = await a.browser.request('DELETE', `/api/auth/2fa/passkeys/${second.passkey.id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await auditRows(AUDIT_ACTIONS.passkeyRemoved, a.id)).toHaveLength(1);
    const last = await a.browser.request('DELETE', `/api/auth/2fa/passkeys/${first.passkey.id}`);
    expect(last.statusCode).toBe(400);
    expect(last.json().message).toMatch(/last second factor/);
    // a confirmation by a passkey of someone else's does not do
    const b = await agent();
    await addPasskey(b);
    const bOptions = (
      await b.browser.request('POST', '/api/auth/2fa/passkeys/confirm/options')
    ).json();
    const foreign = await a.browser.request(
      'DELETE',
      `/api/auth/2fa/passkeys/${first.passkey.id}`,
      {
        confirmation: b.authenticator.assert(bOptions),
      },
    );
    expect(foreign.statusCode).toBe(400);
    const options = (
      await a.browser.request('POST', '/api/auth/2fa/passkeys/confirm/options')
    ).json();
    const confirmed = await a.browser.request(
      'DELETE',
      `/api/auth/2fa/passkeys/${first.passkey.id}`,
      {
        confirmation: a.authenticator.assert(options),
      },
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await a.browser.request('GET', '/api/auth/2fa/passkeys')).json()).toEqual({
      passkeys: [],
    });
    // two factors are off again: the password alone signs in
    const { res } = await passwordStep(a);
    expect(res.json().user).toMatchObject({ id: a.id });
  });
});

describe('enforcement', () => {
  it('an admin with only a passkey satisfies REQUIRE_2FA_FOR_ADMINS', async () => {
    const admin = await loginAdmin(ctx);
    const browser = new Browser();
    browser.cookies.set('lf_session', admin.client.cookie!.slice('lf_session='.length));
    ctx.app.config.REQUIRE_2FA_FOR_ADMINS = true;
    try {
      const blocked = await browser.request('GET', '/api/admin/stats');
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json().message).toBe(TWO_FACTOR_SETUP_REQUIRED);
      expect((await browser.request('GET', '/api/auth/me')).json().twoFactorSetupRequired).toBe(
        true,
      );
      // the passkey setup is open to an admin held to it
      await addPasskey({
        ...admin,
        browser,
        authenticator: new SoftAuthenticator(PUBLIC_URL),
        name: 'Admin',
      });
      expect((await browser.request('GET', '/api/admin/stats')).statusCode).toBe(200);
      expect((await browser.request('GET', '/api/auth/me')).json().twoFactorSetupRequired).toBe(
        false,
      );
    } finally {
      ctx.app.config.REQUIRE_2FA_FOR_ADMINS = false;
    }
  });
});

describe("an admin's reset of a lost second factor", () => {
  it('removes TOTP, recovery codes and passkeys, ends the sessions, and is audited with the admin as actor', async () => {
    const a = await agent();
    const setup = (await a.browser.request('POST', '/api/auth/2fa/totp/setup')).json();
    await a.browser.request('POST', '/api/auth/2fa/totp/enable', {
      code: await generate({ secret: setup.secret }),
    });
    await addPasskey(a);
    // a login waiting for its second step goes too
    const pending = await passwordStep(a);
    const admin = await loginAdmin(ctx);
    const res = await admin.client.post(`/api/admin/users/${a.id}/two-factor/reset`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ totp: true, passkeys: 1 });
    expect((await a.browser.request('GET', '/api/auth/me')).statusCode).toBe(401);
    expect(await db().select().from(sessions).where(eq(sessions.userId, a.id))).toHaveLength(0);
    const o = await pending.browser.request('POST', '/api/auth/2fa/passkeys/verify/options');
    expect(o.statusCode).toBe(401);
    const { res: login } = await passwordStep(a);
    expect(login.json().user).toMatchObject({ id: a.id });
    const [row] = await auditRows('POST /api/admin/users/:id/two-factor/reset', a.id);
    expect(row).toMatchObject({ actorId: admin.id, actorRole: 'ADMIN', targetType: 'user' });
    expect(
      await db().select().from(webauthnChallenges).where(eq(webauthnChallenges.userId, a.id)),
    ).toHaveLength(0);
  });

  it('is refused to agents (403), to an admin for their own account (403), and 404 for no such user', async () => {
    const a = await agent();
    const b = await agent();
    const byAgent = await b.browser.request('POST', `/api/admin/users/${a.id}/two-factor/reset`);
    expect(byAgent.statusCode).toBe(403);
    const own = await a.browser.request('POST', `/api/admin/users/${a.id}/two-factor/reset`);
    expect(own.statusCode).toBe(403);
    const admin = await loginAdmin(ctx);
    const self = await admin.client.post(`/api/admin/users/${admin.id}/two-factor/reset`);
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toMatch(/your own/);
    const none = await admin.client.post('/api/admin/users/2147483000/two-factor/reset');
    expect(none.statusCode).toBe(404);
    expect(
      (await new Browser().request('POST', `/api/admin/users/${a.id}/two-factor/reset`)).statusCode,
    ).toBe(401);
  });
});
