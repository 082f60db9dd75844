/**
 * Registration (issue 13): limited per address and in all, a taken email counted like any other
 * attempt, password hashing capped (503 beyond), and the most common passwords refused.
 */
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config/env';
import { users } from '../src/server/db/schema';
import { HASH_CONCURRENCY, HASH_QUEUE } from '../src/server/modules/auth/passwords';
import { setupTestApp, uniqueEmail } from './support/test-app';

const PER_ADDRESS = 4;
const TOTAL = 6;
const ctx = setupTestApp({ REGISTRATIONS_PER_ADDRESS: PER_ADDRESS });
const tight = setupTestApp({ REGISTRATIONS_TOTAL: TOTAL });
/** room for the bursts of the hashing tests */
const roomy = setupTestApp();

function register(app: typeof ctx.app, body: object, remoteAddress: string) {
  return app.inject({ method: 'POST', url: '/api/auth/register', payload: body, remoteAddress });
}
const agent = (email = uniqueEmail('limit'), password = 'plum-tree-41') => ({
  name: 'Limit',
  email,
  password,
});

describe('registration limits', () => {
  it('limits each address, a taken email counting like a new one', async () => {
    const taken = uniqueEmail('taken');
    const statuses: number[] = [];
    for (const body of [agent(taken), agent(taken), agent(taken.toUpperCase()), agent()]) {
      statuses.push((await register(ctx.app, body, '10.5.0.1')).statusCode);
    }
    expect(statuses).toEqual([201, 409, 409, 201]);
    const blocked = await register(ctx.app, agent(), '10.5.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ message: 'Too many registrations. Try again later.' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
    // the taken email's answer is no longer to be had from there either
    expect((await register(ctx.app, agent(taken), '10.5.0.1')).statusCode).toBe(429);
    // an IPv6 client is one client across its /64
    for (let i = 1; i <= PER_ADDRESS; i++) {
      expect((await register(ctx.app, agent(), `2001:db8:5::${i}`)).statusCode).toBe(201);
    }
    expect((await register(ctx.app, agent(), '2001:db8:5::ffff')).statusCode).toBe(429);
  });

  it('limits all addresses together', async () => {
    for (let i = 0; i < TOTAL; i++) {
      expect((await register(tight.app, agent(), `10.5.1.${i}`)).statusCode).toBe(201);
    }
    const full = await register(tight.app, agent(), '10.5.2.1');
    expect(full.statusCode).toBe(429);
    expect(full.json()).toEqual({ message: 'Too many registrations. Try again later.' });
  });

  it('a refused password or a malformed body does not count', async () => {
    for (let i = 0; i < PER_ADDRESS * 2; i++) {
      const weak = await register(ctx.app, agent(undefined, 'password1'), '10.6.0.1');
      expect(weak.statusCode).toBe(400);
      const malformed = await register(ctx.app, { name: 'Limit' }, '10.6.0.1');
      expect(malformed.statusCode).toBe(400);
    }
    expect((await register(ctx.app, agent(), '10.6.0.1')).statusCode).toBe(201);
  });
});

describe('concurrent registrations', () => {
  it('from one address: no more get through than the limit allows', async () => {
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => register(ctx.app, agent(), '10.7.0.1')),
    );
    const statuses = burst.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(PER_ADDRESS);
    expect(statuses.every((s) => s === 201 || s === 429)).toBe(true);
  });

  it('beyond the cap on password hashing: 503 with Retry-After, none stored, never a 500', async () => {
    const emails = Array.from({ length: 60 }, () => uniqueEmail('burst'));
    const burst = await Promise.all(
      emails.map((email, i) => register(roomy.app, agent(email), `10.8.${i}.1`)),
    );
    const statuses = burst.map((r) => r.statusCode);
    const created = statuses.filter((s) => s === 201).length;
    const busy = burst.filter((r) => r.statusCode === 503);
    expect(
      statuses.every((s) => s === 201 || s === 503),
      statuses.join(','),
    ).toBe(true);
    expect(created).toBeGreaterThanOrEqual(HASH_CONCURRENCY + HASH_QUEUE);
    expect(busy.length).toBeGreaterThan(0);
    for (const res of busy) {
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toEqual({
        message: 'The server is busy: please try again in a moment',
        requestId: res.headers['x-request-id'],
      });
    }
    const [stored] = await roomy.database.db
      .select({ n: count() })
      .from(users)
      .where(eq(users.name, 'Limit'));
    expect(stored.n).toBeGreaterThanOrEqual(created);
    // nothing was stored for a refused one: it registers now
    const busyIndex = statuses.indexOf(503);
    const retry = await register(roomy.app, agent(emails[busyIndex]), `10.8.${busyIndex}.1`);
    expect(retry.statusCode).toBe(201);
  });
});

describe('common passwords', () => {
  it('registration refuses the most common passwords and all-space ones, with a message', async () => {
    for (const password of ['123456', 'password', 'Password1', 'qwerty123', 'iloveyou']) {
      const res = await register(roomy.app, agent(undefined, password), '10.9.0.1');
      expect(res.statusCode, password).toBe(400);
      expect(res.json().message).toMatch(/This password is too common/);
    }
    const spaces = await register(roomy.app, agent(undefined, '        '), '10.9.0.1');
    expect(spaces.statusCode).toBe(400);
    expect(spaces.json()).toEqual({ message: 'Password cannot be only spaces' });
    // six characters stay the minimum
    expect((await register(roomy.app, agent(undefined, 'k7#qz!'), '10.9.0.1')).statusCode).toBe(
      201,
    );
  });

  it('the first admin and admin:create refuse a common ADMIN_PASSWORD at start', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'test', ADMIN_PASSWORD: 'letmein1' } as NodeJS.ProcessEnv),
    ).toThrow(/ADMIN_PASSWORD: This password is too common/);
    expect(() =>
      loadConfig({ NODE_ENV: 'test', ADMIN_PASSWORD: '       ' } as NodeJS.ProcessEnv),
    ).toThrow(/ADMIN_PASSWORD: Password cannot be only spaces/);
    expect(
      loadConfig({ NODE_ENV: 'test', ADMIN_PASSWORD: 'races-admin-pass' } as NodeJS.ProcessEnv)
        .ADMIN_PASSWORD,
    ).toBe('races-admin-pass');
  });
});
