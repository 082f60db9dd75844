import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, users } from '../src/server/db/schema';
import { Client, registerAgent, setupTestApp, uniqueEmail } from './support/test-app';

const ctx = setupTestApp();

describe('registration', () => {
  it('creates an AGENT whatever the payload says, and never stores the password in clear', async () => {
    const client = new Client(ctx.app);
    const email = uniqueEmail('reg');
    const res = await client.post('/api/auth/register', {
      name: 'Jane Agent',
      email,
      password: 'plum-tree-41',
      role: 'ADMIN',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().user).toMatchObject({ name: 'Jane Agent', email, role: 'AGENT' });
    expect(res.json().user.password).toBeUndefined();
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, email));
    expect(row.role).toBe('AGENT');
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('answers 409 with a message for a duplicate email, whatever its case', async () => {
    const client = new Client(ctx.app);
    const email = uniqueEmail('dup');
    expect(
      (await client.post('/api/auth/register', { name: 'A', email, password: 'plum-tree-41' }))
        .statusCode,
    ).toBe(201);
    const again = await client.post('/api/auth/register', {
      name: 'B',
      email: email.toUpperCase(),
      password: 'plum-tree-42',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('An account with this email already exists');
  });

  it('refuses a short password, a bad email and a missing name with 400 and a message', async () => {
    const client = new Client(ctx.app);
    for (const body of [
      { name: 'A', email: uniqueEmail(), password: '12345' },
      { name: 'A', email: 'not-an-email', password: 'plum-tree-41' },
      { name: '', email: uniqueEmail(), password: 'plum-tree-41' },
      { name: 'A', email: uniqueEmail(), password: 123456 },
    ]) {
      const res = await client.post('/api/auth/register', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(typeof res.json().message).toBe('string');
    }
  });
});

describe('login, me and logout', () => {
  it('logs in with {user} and role, sets a hardened cookie, and me answers the user', async () => {
    const client = new Client(ctx.app);
    const email = uniqueEmail('login');
    await client.post('/api/auth/register', { name: 'Lou', email, password: 'plum-tree-41' });
    const res = await client.post('/api/auth/login', {
      email: email.toUpperCase(),
      password: 'plum-tree-41',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ email, role: 'AGENT', name: 'Lou' });
    const cookie = res.cookies.find((c) => c.name === 'lf_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.path).toBe('/');
    expect(cookie.secure).toBeFalsy();
    const me = await client.get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    // the current user itself, role at the top (what the client reads); login answered user.role
    expect(me.json()).toEqual({
      id: res.json().user.id,
      name: 'Lou',
      email,
      role: 'AGENT',
      approval: 'APPROVED',
      twoFactorSetupRequired: false,
    });
  });

  it('stores only a hash of the session token', async () => {
    const agent = await registerAgent(ctx.app);
    const token = agent.client.cookie!.split('=')[1];
    const rows = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, agent.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).not.toBe(token);
    expect(rows[0].tokenHash).not.toContain(token);
  });

  it('answers 401 {message} for a wrong password and for an unknown email', async () => {
    const agent = await registerAgent(ctx.app);
    const client = new Client(ctx.app);
    const wrong = await client.post('/api/auth/login', {
      email: agent.email,
      password: 'nope-nope',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid email or password' });
    const unknown = await client.post('/api/auth/login', {
      email: uniqueEmail(),
      password: 'plum-tree-41',
    });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ message: 'Invalid email or password' });
  });

  it('answers 401 on me without a session and with a made-up cookie', async () => {
    const anon = new Client(ctx.app);
    expect((await anon.get('/api/auth/me')).statusCode).toBe(401);
    anon.cookie = 'lf_session=made-up-token';
    const res = await anon.get('/api/auth/me');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Not authenticated');
  });

  it('rotates the session at login: a new token each time, the old one dropped', async () => {
    const agent = await registerAgent(ctx.app);
    const first = agent.client.cookie;
    await agent.client.post('/api/auth/login', { email: agent.email, password: agent.password });
    expect(agent.client.cookie).not.toBe(first);
    const stale = new Client(ctx.app);
    stale.cookie = first;
    expect((await stale.get('/api/auth/me')).statusCode).toBe(401);
    expect((await agent.client.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('destroys the session server-side at logout: the old cookie no longer works', async () => {
    const agent = await registerAgent(ctx.app);
    const oldCookie = agent.client.cookie;
    const out = await agent.client.post('/api/auth/logout');
    expect(out.statusCode).toBe(200);
    const replay = new Client(ctx.app);
    replay.cookie = oldCookie;
    expect((await replay.get('/api/auth/me')).statusCode).toBe(401);
    const rows = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, agent.id));
    expect(rows).toHaveLength(0);
  });

  it('refuses an expired session (idle or absolute)', async () => {
    const agent = await registerAgent(ctx.app);
    await ctx.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, agent.id));
    expect((await agent.client.get('/api/auth/me')).statusCode).toBe(401);

    const other = await registerAgent(ctx.app);
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 2 * 86_400_000) })
      .where(eq(sessions.userId, other.id));
    expect((await other.client.get('/api/auth/me')).statusCode).toBe(401);
  });
});

describe('login throttling', () => {
  it('answers 429 with a message after repeated failures on one account, even with the right password', async () => {
    const agent = await registerAgent(ctx.app);
    const client = new Client(ctx.app);
    for (let i = 0; i < 5; i++) {
      expect(
        (await client.post('/api/auth/login', { email: agent.email, password: 'wrong-pw' }))
          .statusCode,
      ).toBe(401);
    }
    const blocked = await client.post('/api/auth/login', {
      email: agent.email,
      password: agent.password,
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(
      /^Too many failed attempts. Try again in \d+ minutes?\.$/,
    );
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('throttles one IP that tries many accounts, whatever X-Forwarded-For it sends', async () => {
    const client = new Client(ctx.app);
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const res = await client.request(
        'POST',
        '/api/auth/login',
        { email: uniqueEmail('spray'), password: 'x' },
        // a new forged address each time: with no TRUST_PROXY it counts for nothing
        { 'x-forwarded-for': `10.9.9.${i}` },
      );
      statuses.push(res.statusCode);
    }
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(30);
    expect(statuses.slice(-2)).toEqual([429, 429]);
  });
});

describe('cross-site requests', () => {
  it('refuses a state-changing request from another origin, allows the same origin', async () => {
    const client = new Client(ctx.app);
    const body = { name: 'X', email: uniqueEmail('csrf'), password: 'plum-tree-41' };
    const evil = await client.request('POST', '/api/auth/register', body, {
      origin: 'https://evil.example',
    });
    expect(evil.statusCode).toBe(403);
    expect(evil.json().message).toBe('Cross-site request refused');
    const fetchMeta = await client.request('POST', '/api/auth/register', body, {
      'sec-fetch-site': 'cross-site',
    });
    expect(fetchMeta.statusCode).toBe(403);
    const same = await client.request('POST', '/api/auth/register', body, {
      origin: 'http://localhost:80',
      host: 'localhost:80',
    });
    expect(same.statusCode).toBe(201);
  });
});

describe('errors and headers', () => {
  it('answers JSON 404 for an unknown API path and 400 for malformed JSON', async () => {
    const client = new Client(ctx.app);
    const res = await client.get('/api/does-not-exist');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/not found/);
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/not valid JSON/);
  });

  it('sends security headers without forcing https', async () => {
    const res = await new Client(ctx.app).get('/api/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('health reports the database', async () => {
    const res = await new Client(ctx.app).get('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ok',
      database: 'ok',
      businessTimeZone: ctx.app.config.BUSINESS_TZ,
    });
  });
});
