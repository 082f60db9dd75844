/**
 * Passwords (docs/domain.md, Accounts): "Forgot password?" through a real SMTP receiver, the
 * reset link's rules (single use, 30 minutes, a newer link replaces it), the same answer for an
 * unknown email, "Change password" for a signed-in user, the admin's reset link, and the lockout
 * that says how long to wait.
 */
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/server/config/env';
import { passwordResets } from '../src/server/db/schema';
import { SmtpReceiver } from './support/smtp-receiver';
import { Client, loginAdmin, registerAgent, setupTestApp, uniqueEmail } from './support/test-app';

const PUBLIC_URL = 'https://portal.example.com';
const smtp = new SmtpReceiver();
const overrides: Partial<AppConfig> = { PUBLIC_URL };
beforeAll(async () => {
  overrides.SMTP_URL = await smtp.start();
});
afterAll(async () => {
  await smtp.stop();
});
// registered after the receiver's beforeAll, so the app reads its port from `overrides`
const ctx = setupTestApp(overrides);

const FORGOT_ANSWER = {
  message: 'If an account exists for this email, we sent a link to reset the password.',
};
const EXPIRED = { message: 'This reset link has expired or was already used' };

async function waitFor<T>(what: string, probe: () => T | null | undefined) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function forgot(email: string, remoteAddress = '10.9.0.1') {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/password/forgot',
    payload: { email },
    remoteAddress,
  });
}

const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';

async function resetLinkByAdmin(userId: number): Promise<string> {
  const admin = await loginAdmin(ctx);
  const res = await admin.client.post(`/api/admin/users/${userId}/reset-link`);
  expect(res.statusCode).toBe(200);
  return res.json().url;
}

function reset(token: string, password: string): Promise<LightMyRequestResponse> {
  return new Client(ctx.app).post('/api/auth/password/reset', { token, password });
}

async function canLogIn(email: string, password: string): Promise<number> {
  return (await new Client(ctx.app).post('/api/auth/login', { email, password })).statusCode;
}

describe('forgot password', () => {
  it('emails a link that sets a new password once and ends every session of the user', async () => {
    const agent = await registerAgent(ctx.app);
    const laptop = new Client(ctx.app);
    await laptop.post('/api/auth/login', { email: agent.email, password: agent.password });

    const asked = await forgot(agent.email.toUpperCase());
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual(FORGOT_ANSWER);
    const mail = await waitFor('the reset email', () =>
      smtp.inbox.find((m) => m.to.includes(agent.email)),
    );
    expect(mail.mail.subject).toBe('Reset your LeadFlow password');
    const url = mail.mail.text?.match(/https:\S+/)?.[0] ?? '';
    expect(url).toMatch(/^https:\/\/portal\.example\.com\/reset-password\?token=[\w-]{43}$/);

    const done = await reset(tokenOf(url), 'fresh-lime-tree-7');
    expect(done.statusCode).toBe(200);
    // both sessions ended; the old password no longer signs in, the new one does
    expect((await agent.client.get('/api/auth/me')).statusCode).toBe(401);
    expect((await laptop.get('/api/auth/me')).statusCode).toBe(401);
    expect(await canLogIn(agent.email, agent.password)).toBe(401);
    expect(await canLogIn(agent.email, 'fresh-lime-tree-7')).toBe(200);
    // used once only
    const again = await reset(tokenOf(url), 'another-lime-tree-8');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(EXPIRED);
    expect(await canLogIn(agent.email, 'fresh-lime-tree-7')).toBe(200);
  });

  it('stores only a hash of the emailed reset token, and the emailed link works', async () => {
    const agent = await registerAgent(ctx.app);
    expect((await forgot(agent.email, '10.9.4.1')).statusCode).toBe(202);
    const mail = await waitFor('the reset email', () =>
      smtp.inbox.find((m) => m.to.includes(agent.email)),
    );
    const token = tokenOf(mail.mail.text?.match(/https:\S+/)?.[0] ?? '');
    expect(token).toMatch(/^[\w-]{43}$/);
    const stored = await ctx.database.db.select().from(passwordResets);
    expect(stored.filter((r) => r.userId === agent.id)).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
    // and the emailed link is the one that works
    expect((await reset(token, 'hashed-lime-tree-9')).statusCode).toBe(200);
  });

  it('answers an unknown email exactly as a known one, and emails no one', async () => {
    const agent = await registerAgent(ctx.app);
    const known = await forgot(agent.email, '10.9.1.1');
    const nobody = uniqueEmail('nobody');
    const unknown = await forgot(nobody, '10.9.1.1');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    // every answer has its own date and request id
    const { date: _a, 'x-request-id': _c, ...knownHeaders } = known.headers;
    const { date: _b, 'x-request-id': _d, ...unknownHeaders } = unknown.headers;
    expect(unknownHeaders).toEqual(knownHeaders);
    await waitFor('the known account’s email', () =>
      smtp.inbox.find((m) => m.to.includes(agent.email)),
    );
    expect(smtp.inbox.filter((m) => m.to.includes(nobody))).toEqual([]);
  });

  it('limits requests per email and per address, unknown emails alike (429 with Retry-After)', async () => {
    const nobody = uniqueEmail('limited');
    for (let i = 1; i <= 5; i++) expect((await forgot(nobody, `10.9.2.${i}`)).statusCode).toBe(202);
    const perEmail = await forgot(nobody, '10.9.2.99');
    expect(perEmail.statusCode).toBe(429);
    expect(Number(perEmail.headers['retry-after'])).toBeGreaterThan(800);
    for (let i = 0; i < 30; i++) {
      expect((await forgot(uniqueEmail('spray'), '10.9.3.1')).statusCode).toBe(202);
    }
    const perAddress = await forgot(uniqueEmail('spray'), '10.9.3.1');
    expect(perAddress.statusCode).toBe(429);
    expect(perAddress.json()).toEqual({ message: 'Too many reset requests. Try again later.' });
  });
});

describe('reset links', () => {
  it('a newer link makes the earlier ones unusable', async () => {
    const agent = await registerAgent(ctx.app);
    const first = await resetLinkByAdmin(agent.id);
    const second = await resetLinkByAdmin(agent.id);
    expect((await reset(tokenOf(first), 'first-link-pass-1')).json()).toEqual(EXPIRED);
    expect((await reset(tokenOf(second), 'second-link-pass-2')).statusCode).toBe(200);
    expect(await canLogIn(agent.email, 'second-link-pass-2')).toBe(200);
  });

  it('a link older than 30 minutes no longer works', async () => {
    const agent = await registerAgent(ctx.app);
    const url = await resetLinkByAdmin(agent.id);
    // 31 minutes later, as the database sees it
    await ctx.database.db.execute(
      sql`update password_resets
             set created_at = created_at - interval '31 minutes',
                 expires_at = expires_at - interval '31 minutes'
           where user_id = ${agent.id}`,
    );
    const late = await reset(tokenOf(url), 'too-late-pass-3');
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual(EXPIRED);
    expect(await canLogIn(agent.email, agent.password)).toBe(200);
  });

  it('an unknown token is refused the same way', async () => {
    const res = await reset('x'.repeat(43), 'whatever-pass-4');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(EXPIRED);
  });

  it('applies the registration password rules and leaves the link usable when refused', async () => {
    const agent = await registerAgent(ctx.app);
    const token = tokenOf(await resetLinkByAdmin(agent.id));
    const common = await reset(token, 'password1');
    expect(common.statusCode).toBe(400);
    expect(common.json().message).toMatch(/too common/);
    expect((await reset(token, '12345')).statusCode).toBe(400);
    expect((await reset(token, 'x'.repeat(1025))).statusCode).toBe(400);
    expect((await reset(token, 'good-enough-pass-5')).statusCode).toBe(200);
  });

  it('the admin’s link points at the portal’s reset page, and a missing user is 404', async () => {
    const agent = await registerAgent(ctx.app);
    expect(await resetLinkByAdmin(agent.id)).toMatch(
      /^https:\/\/portal\.example\.com\/reset-password\?token=[\w-]{43}$/,
    );
    const admin = await loginAdmin(ctx);
    expect((await admin.client.post('/api/admin/users/999999/reset-link')).statusCode).toBe(404);
  });
});

describe('change password', () => {
  it('keeps the current session and ends every other one', async () => {
    const agent = await registerAgent(ctx.app);
    const phone = new Client(ctx.app);
    await phone.post('/api/auth/login', { email: agent.email, password: agent.password });
    const res = await agent.client.post('/api/auth/password/change', {
      currentPassword: agent.password,
      newPassword: 'changed-pear-tree-9',
    });
    expect(res.statusCode).toBe(200);
    expect((await agent.client.get('/api/auth/me')).statusCode).toBe(200);
    expect((await phone.get('/api/auth/me')).statusCode).toBe(401);
    expect(await canLogIn(agent.email, 'changed-pear-tree-9')).toBe(200);
    expect(await canLogIn(agent.email, agent.password)).toBe(401);
  });

  it('an admin changes their own password too', async () => {
    const admin = await loginAdmin(ctx);
    const res = await admin.client.post('/api/auth/password/change', {
      currentPassword: admin.password,
      newPassword: 'admin-new-secret-1',
    });
    expect(res.statusCode).toBe(200);
    expect(await canLogIn(admin.email, 'admin-new-secret-1')).toBe(200);
  });

  it('a wrong current password is a 400 on the field, counted like a failed login', async () => {
    const agent = await registerAgent(ctx.app);
    const wrong = { currentPassword: 'not-my-password', newPassword: 'changed-plum-10' };
    const first = await agent.client.post('/api/auth/password/change', wrong);
    expect(first.statusCode).toBe(400);
    expect(first.json().errors).toEqual([
      { field: 'currentPassword', message: 'The current password is wrong' },
    ]);
    for (let i = 2; i <= 5; i++) {
      expect((await agent.client.post('/api/auth/password/change', wrong)).statusCode).toBe(400);
    }
    // the sixth guess, and a login from the same address, meet the lockout
    const locked = await agent.client.post('/api/auth/password/change', {
      ...wrong,
      currentPassword: agent.password,
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      message: 'Too many failed attempts. Try again in 15 minutes.',
    });
    expect(await canLogIn(agent.email, agent.password)).toBe(429);
  });

  it('applies the password rules to the new password, on its field', async () => {
    const agent = await registerAgent(ctx.app);
    const res = await agent.client.post('/api/auth/password/change', {
      currentPassword: agent.password,
      newPassword: 'password1',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('newPassword');
  });
});

describe('the lockout after failed logins', () => {
  it('says how many minutes to wait', async () => {
    const agent = await registerAgent(ctx.app);
    const from = (password: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: agent.email, password },
        remoteAddress: '10.9.9.9',
      });
    for (let i = 0; i < 5; i++) expect((await from('wrong-guess')).statusCode).toBe(401);
    const locked = await from(agent.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      message: 'Too many failed attempts. Try again in 15 minutes.',
    });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
  });
});
