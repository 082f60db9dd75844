/**
 * Two-factor authentication by TOTP (docs/domain.md, Accounts: two factors): setup and enable,
 * the login's code step (no session before it), recovery codes used once, the code throttle,
 * replayed codes, turning it off with a code, and REQUIRE_2FA_FOR_ADMINS.
 */
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config/env';
import {
  auditEvents,
  pendingLogins,
  recoveryCodes,
  sessions,
  userTotp,
} from '../src/server/db/schema';
import { TWO_FACTOR_SETUP_REQUIRED } from '../src/shared/contracts/auth';
import { createAgency } from './support/agency-fixtures';
import { loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp();
const db = () => ctx.database.db;

/** A browser: keeps every cookie the server sets (the session's and the pending login's). */
class Browser {
  cookies = new Map<string, string>();
  async request(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
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

/** The code of the time step `steps` away from now (the server accepts one step either side). */
const codeAt = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** An agent with TOTP on: its secret and recovery codes, enabled with the previous step's code. */
async function agentWithTotp() {
  const agent = await registerAgent(ctx.app);
  const setup = await agent.client.post('/api/auth/2fa/totp/setup');
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret, otpauthUrl, qrSvg } = setup.json();
  expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/LeadFlow:.+secret=/);
  expect(qrSvg).toContain('<svg');
  const enable = await agent.client.post('/api/auth/2fa/totp/enable', {
    code: await codeAt(secret, -1),
  });
  expect(enable.statusCode, enable.body).toBe(200);
  const codes: string[] = enable.json().recoveryCodes;
  return { ...agent, secret, recoveryCodes: codes };
}

async function passwordStep(user: { email: string; password: string }) {
  const browser = new Browser();
  const res = await browser.request('POST', '/api/auth/login', {
    email: user.email,
    password: user.password,
  });
  return { browser, res };
}

describe('TOTP setup', () => {
  it('answers a secret, kept pending until a code confirms it, then ten recovery codes stored hashed; the secret is never shown again', async () => {
    const agent = await registerAgent(ctx.app);
    const setup = (await agent.client.post('/api/auth/2fa/totp/setup')).json();
    let status = (await agent.client.get('/api/auth/2fa')).json();
    expect(status).toEqual({ enabled: false, recoveryCodesLeft: 0, passkeys: 0 });
    const wrong = await agent.client.post('/api/auth/2fa/totp/enable', { code: '000000x' });
    expect(wrong.statusCode).toBe(400);
    const ok = await agent.client.post('/api/auth/2fa/totp/enable', {
      code: await codeAt(setup.secret),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const codes: string[] = ok.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const stored = await db()
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, agent.id));
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(codes).not.toContain(row.codeHash);
    status = (await agent.client.get('/api/auth/2fa')).json();
    expect(status).toEqual({ enabled: true, recoveryCodesLeft: 10, passkeys: 0 });
    // once on, no second setup: the secret is never answered again
    const again = await agent.client.post('/api/auth/2fa/totp/setup');
    expect(again.statusCode).toBe(409);
    expect(again.body).not.toContain(setup.secret);
  });
});

describe('login with two factors on', () => {
  it('answers twoFactorRequired and creates no session until a right code; a replayed code is refused', async () => {
    const agent = await agentWithTotp();
    const { browser, res } = await passwordStep(agent);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      twoFactorRequired: true,
      methods: { totp: true, passkey: false },
    });
    expect(res.cookies.find((c) => c.name === 'lf_session')).toBeUndefined();
    const pending = res.cookies.find((c) => c.name === 'lf_2fa');
    expect(pending).toMatchObject({ httpOnly: true, path: '/api/auth/2fa' });
    // the pending login is kept server-side, by its hash only
    const rows = await db().select().from(pendingLogins).where(eq(pendingLogins.userId, agent.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).not.toBe(pending?.value);
    expect(await db().select().from(sessions).where(eq(sessions.userId, agent.id))).toHaveLength(1); // registerAgent's own session only
    expect((await browser.request('GET', '/api/auth/me')).statusCode).toBe(401);

    // the code of the next step (the current one was used to enable)
    const code = await codeAt(agent.secret, 1);
    const verified = await browser.request('POST', '/api/auth/2fa/verify', { code });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().user).toMatchObject({ id: agent.id, email: agent.email });
    expect((await browser.request('GET', '/api/auth/me')).statusCode).toBe(200);
    expect(browser.cookies.has('lf_2fa')).toBe(false);

    // the same code again, on a new login: refused (replay)
    const second = await passwordStep(agent);
    const replay = await second.browser.request('POST', '/api/auth/2fa/verify', { code });
    expect(replay.statusCode).toBe(400);
    expect((await second.browser.request('GET', '/api/auth/me')).statusCode).toBe(401);
  });

  it('refuses the code step without a pending login, and a pending login used once', async () => {
    const agent = await agentWithTotp();
    const anon = new Browser();
    const none = await anon.request('POST', '/api/auth/2fa/verify', { code: '123456' });
    expect(none.statusCode).toBe(401);
    const { browser } = await passwordStep(agent);
    const stolen = new Map(browser.cookies);
    const ok = await browser.request('POST', '/api/auth/2fa/verify', {
      code: agent.recoveryCodes[0],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const again = new Browser();
    again.cookies = stolen;
    const reuse = await again.request('POST', '/api/auth/2fa/verify', {
      code: agent.recoveryCodes[1],
    });
    expect(reuse.statusCode).toBe(401);
  });

  it('lets a pending login lapse after 5 minutes', async () => {
    const agent = await agentWithTotp();
    const { browser } = await passwordStep(agent);
    const [row] = await db().select().from(pendingLogins).where(eq(pendingLogins.userId, agent.id));
    const minutes = ((row?.expiresAt.getTime() ?? 0) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(4.9);
    expect(minutes).toBeLessThanOrEqual(5);
    await db()
      .update(pendingLogins)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(pendingLogins.userId, agent.id));
    const late = await browser.request('POST', '/api/auth/2fa/verify', {
      code: agent.recoveryCodes[0],
    });
    expect(late.statusCode).toBe(401);
    expect((await browser.request('GET', '/api/auth/me')).statusCode).toBe(401);
  });

  it('takes each recovery code once', async () => {
    const agent = await agentWithTotp();
    const [first, second] = agent.recoveryCodes;
    const a = await passwordStep(agent);
    const used = await a.browser.request('POST', '/api/auth/2fa/verify', { code: first });
    expect(used.statusCode, used.body).toBe(200);
    const b = await passwordStep(agent);
    const twice = await b.browser.request('POST', '/api/auth/2fa/verify', { code: first });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe('This code is not valid');
    // typed in capitals and without the dash, another code still works
    const other = await b.browser.request('POST', '/api/auth/2fa/verify', {
      code: second?.replace('-', '').toUpperCase(),
    });
    expect(other.statusCode, other.body).toBe(200);
    expect((await a.browser.request('GET', '/api/auth/2fa')).json().recoveryCodesLeft).toBe(8);
  });

  it('throttles codes per account (5 in 15 minutes, counted in the database), the right code included once locked', async () => {
    const agent = await agentWithTotp(); // enabling took one attempt
    const { browser } = await passwordStep(agent);
    for (let i = 0; i < 4; i++) {
      const wrong = await browser.request('POST', '/api/auth/2fa/verify', { code: 'nope-nope' });
      expect(wrong.statusCode).toBe(400);
    }
    const locked = await browser.request('POST', '/api/auth/2fa/verify', {
      code: await codeAt(agent.secret, 1),
    });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.json().message).toMatch(/Too many attempts/);
    expect((await browser.request('GET', '/api/auth/me')).statusCode).toBe(401);
  });
});

describe('turning two factors off', () => {
  it('needs a current code or a recovery code', async () => {
    const agent = await agentWithTotp();
    const noCode = await agent.client.request('DELETE', '/api/auth/2fa', {});
    expect(noCode.statusCode).toBe(400);
    const wrong = await agent.client.request('DELETE', '/api/auth/2fa', { code: 'wrong-code' });
    expect(wrong.statusCode).toBe(400);
    expect((await agent.client.get('/api/auth/2fa')).json().enabled).toBe(true);
    const off = await agent.client.request('DELETE', '/api/auth/2fa', {
      code: await codeAt(agent.secret),
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(await db().select().from(userTotp).where(eq(userTotp.userId, agent.id))).toHaveLength(0);
    expect(
      await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, agent.id)),
    ).toHaveLength(0);
    // the password alone signs in again
    const { res } = await passwordStep(agent);
    expect(res.json().user).toMatchObject({ id: agent.id });
    // both changes are in the audit log, with who and from where
    const logged = await db()
      .select({ action: auditEvents.action, actorId: auditEvents.actorId, ip: auditEvents.ip })
      .from(auditEvents)
      .where(eq(auditEvents.targetId, String(agent.id)));
    expect(logged.map((r) => r.action)).toEqual(
      expect.arrayContaining(['auth.two_factor_enabled', 'auth.two_factor_disabled']),
    );
    expect(logged.every((r) => r.actorId === agent.id || r.actorId === null)).toBe(true);
  });
});

describe('REQUIRE_2FA_FOR_ADMINS', () => {
  it('defaults to true in production only, and can be set either way', () => {
    const env = (e: Record<string, string>) => loadConfig(e as NodeJS.ProcessEnv);
    expect(env({ NODE_ENV: 'production' }).REQUIRE_2FA_FOR_ADMINS).toBe(true);
    expect(env({ NODE_ENV: 'development' }).REQUIRE_2FA_FOR_ADMINS).toBe(false);
    expect(env({ NODE_ENV: 'test' }).REQUIRE_2FA_FOR_ADMINS).toBe(false);
    expect(
      env({ NODE_ENV: 'production', REQUIRE_2FA_FOR_ADMINS: 'false' }).REQUIRE_2FA_FOR_ADMINS,
    ).toBe(false);
    expect(env({ NODE_ENV: 'test', REQUIRE_2FA_FOR_ADMINS: 'true' }).REQUIRE_2FA_FOR_ADMINS).toBe(
      true,
    );
  });

  it('lets an admin without two factors only set them up, then everything', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app);
    ctx.app.config.REQUIRE_2FA_FOR_ADMINS = true;
    try {
      const refused = await admin.client.get('/api/admin/agents');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(TWO_FACTOR_SETUP_REQUIRED);
      expect((await admin.client.post('/api/admin/invites', {})).statusCode).toBe(403);
      expect((await admin.client.get('/api/legal/privacy')).statusCode).toBe(200);
      const me = await admin.client.get('/api/auth/me');
      expect(me.json()).toMatchObject({ role: 'ADMIN', twoFactorSetupRequired: true });
      // agents are not concerned
      expect((await agent.client.get('/api/auth/me')).json().twoFactorSetupRequired).toBe(false);
      expect((await agent.client.get('/api/agent/preferences')).statusCode).not.toBe(403);

      const setup = (await admin.client.post('/api/auth/2fa/totp/setup')).json();
      const enable = await admin.client.post('/api/auth/2fa/totp/enable', {
        code: await codeAt(setup.secret),
      });
      expect(enable.statusCode, enable.body).toBe(200);
      expect((await admin.client.get('/api/admin/agents')).statusCode).toBe(200);
      expect((await admin.client.get('/api/auth/me')).json().twoFactorSetupRequired).toBe(false);
    } finally {
      ctx.app.config.REQUIRE_2FA_FOR_ADMINS = false;
    }
  });
});

describe("an agency's owner requiring two factors of members", () => {
  it('turns it on with PATCH /api/agency; a member without two factors can then only set them up', async () => {
    const owner = await registerAgent(ctx.app, 'Olive Owner');
    const member = await registerAgent(ctx.app, 'Milo Member');
    const outsider = await registerAgent(ctx.app, 'Otto Outside');
    await createAgency(db(), { ownerId: owner.id, members: [member.id] });

    // only the owner changes it
    expect((await member.client.patch('/api/agency', { requireTwoFactor: true })).statusCode).toBe(
      403,
    );
    const set = await owner.client.patch('/api/agency', { requireTwoFactor: true });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().agency.requireTwoFactor).toBe(true);

    for (const who of [owner, member]) {
      const refused = await who.client.get('/api/agency');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(TWO_FACTOR_SETUP_REQUIRED);
      expect((await who.client.get('/api/auth/me')).json().twoFactorSetupRequired).toBe(true);
    }
    // not a member: not concerned
    expect((await outsider.client.get('/api/auth/me')).json().twoFactorSetupRequired).toBe(false);

    const setup = (await member.client.post('/api/auth/2fa/totp/setup')).json();
    const enable = await member.client.post('/api/auth/2fa/totp/enable', {
      code: await codeAt(setup.secret),
    });
    expect(enable.statusCode, enable.body).toBe(200);
    const mine = await member.client.get('/api/agency');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().agency.requireTwoFactor).toBe(true);
    // the owner is a member too
    expect((await owner.client.get('/api/agency')).statusCode).toBe(403);
  });
});
