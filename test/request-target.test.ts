/**
 * Which requests reach the routes (issue 13): a request target the router would decode to a route
 * while other code would not recognise it is refused, and so is a Host the server is not set up
 * for (DNS rebinding); a state-changing request must come from this scheme, host and port.
 */
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultAllowedHosts, loadConfig } from '../src/server/config/env';
import { rawRequest } from './support/raw-http';
import { Client, registerAgent, setupTestApp, uniqueEmail } from './support/test-app';

const ctx = setupTestApp();
let port: number;
beforeAll(async () => {
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  port = (ctx.app.server.address() as AddressInfo).port;
});

function raw(method: string, target: string, headers: Record<string, string> = {}) {
  const lines = Object.entries({ host: 'localhost:80', connection: 'close', ...headers }).map(
    ([k, v]) => `${k}: ${v}`,
  );
  return rawRequest(port, `${method} ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
}

describe('request targets', () => {
  it('a logout spelled /%61pi/... or in absolute form is refused (400), and the session stays valid', async () => {
    const agent = await registerAgent(ctx.app);
    for (const target of [
      '/%61pi/auth/logout',
      '/api/auth/%6cogout',
      `http://localhost:80/api/auth/logout`,
      `http://127.0.0.1:${port}/api/auth/logout`,
    ]) {
      const res = await raw('POST', target, { cookie: agent.client.cookie! });
      expect(res.status, `${target}: ${res.body}`).toBe(400);
      expect(JSON.parse(res.body)).toEqual({
        message: 'Malformed request target: send the path as /api/..., not encoded',
      });
      expect(res.headers['set-cookie'], target).toBeUndefined();
      expect((await agent.client.get('/api/auth/me')).statusCode, target).toBe(200);
    }
    // the canonical spelling logs out, and the session is gone
    const cookie = agent.client.cookie!;
    const out = await raw('POST', '/api/auth/logout', { cookie });
    expect(out.status).toBe(200);
    const replay = new Client(ctx.app);
    replay.cookie = cookie;
    expect((await replay.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('refuses an encoded unreserved character on a read too, but not other encodings', async () => {
    const agent = await registerAgent(ctx.app);
    const me = await raw('GET', '/api/auth/%6De', { cookie: agent.client.cookie! });
    expect(me.status).toBe(400);
    // a percent-encoded reserved character or space is a different path, not a spelling of one
    const other = await raw('GET', '/api/auth/m%20e', { cookie: agent.client.cookie! });
    expect(other.status).toBe(404);
  });
});

describe('allowed hosts', () => {
  it('answers 421 for a Host it is not set up for, on every route but the health probe', async () => {
    const agent = await registerAgent(ctx.app);
    const rebound = { host: 'evil.example:80' };
    const me = await raw('GET', '/api/auth/me', { ...rebound, cookie: agent.client.cookie! });
    expect(me.status).toBe(421);
    expect(JSON.parse(me.body)).toEqual({
      message: 'Unknown host: this server answers only for the names it is set up for',
    });
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { ...rebound, origin: 'http://evil.example' },
      payload: { email: agent.email, password: agent.password },
    });
    expect(login.statusCode).toBe(421);
    expect(login.cookies).toHaveLength(0);
    for (const host of ['localhost:8080', 'localhost.evil.example:80', '127.0.0.1:80', 'a:b:c']) {
      const res = await raw('GET', '/api/packages', { host });
      expect(res.status, host).toBe(421);
    }
    // the health probe of a load balancer names the server by its address
    expect((await raw('GET', '/api/health', rebound)).status).toBe(200);
  });

  it('takes the Host with the default port implied, in any case', async () => {
    for (const host of ['localhost', 'LOCALHOST:80', 'localhost:80']) {
      expect((await raw('GET', '/api/packages', { host })).status, host).toBe(200);
    }
  });

  it('does not believe X-Forwarded-Host from a caller that is not a trusted proxy', async () => {
    const res = await raw('GET', '/api/packages', { 'x-forwarded-host': 'evil.example' });
    expect(res.status).toBe(200);
    const rebound = await raw('GET', '/api/packages', {
      host: 'evil.example',
      'x-forwarded-host': 'localhost:80',
    });
    expect(rebound.status).toBe(421);
  });
});

describe('ALLOWED_HOSTS setting', () => {
  const read = (env: Record<string, string>) =>
    loadConfig({ NODE_ENV: 'production', ...env } as NodeJS.ProcessEnv).ALLOWED_HOSTS;

  it('defaults to HOST and the loopback names with PORT (any port for loopback in development)', () => {
    expect(read({})).toEqual(['127.0.0.1:3000', 'localhost:3000', '[::1]:3000']);
    expect(read({ HOST: '0.0.0.0', PORT: '8080' })).toEqual([
      '0.0.0.0:8080',
      '127.0.0.1:8080',
      'localhost:8080',
      '[::1]:8080',
    ]);
    expect(defaultAllowedHosts('::', 80, 'production')[0]).toBe('[::]:80');
    expect(defaultAllowedHosts('127.0.0.1', 3000, 'development')).toEqual([
      '127.0.0.1:3000',
      'localhost:3000',
      '[::1]:3000',
      '127.0.0.1',
      'localhost',
      '[::1]',
    ]);
  });

  it('takes a list of names with optional ports, and refuses anything else', () => {
    expect(read({ ALLOWED_HOSTS: ' Leads.Example.com, 10.0.0.5:3000,[::1]:80 ' })).toEqual([
      'leads.example.com',
      '10.0.0.5:3000',
      '[::1]:80',
    ]);
    for (const bad of ['', ',', 'http://leads.example.com', 'leads.example.com/x', 'a b', '*']) {
      expect(() => read({ ALLOWED_HOSTS: bad }), bad).toThrow(/ALLOWED_HOSTS: expected host names/);
    }
  });
});

describe('scheme of a state-changing request', () => {
  it('refuses an https Origin on plain http, and the other way round behind https', async () => {
    const body = () => ({ name: 'S', email: uniqueEmail('scheme'), password: 'plum-tree-41' });
    const https = await new Client(ctx.app).request('POST', '/api/auth/register', body(), {
      origin: 'https://localhost',
    });
    expect(https.statusCode).toBe(403);
    expect(https.json()).toEqual({ message: 'Cross-site request refused' });
    const http = await new Client(ctx.app).request('POST', '/api/auth/register', body(), {
      origin: 'http://localhost',
    });
    expect(http.statusCode).toBe(201);
  });

  describe('with COOKIE_SECURE=true (served over https by a proxy)', () => {
    const secure = setupTestApp({
      COOKIE_SECURE: true,
      ALLOWED_HOSTS: ['localhost:80', 'localhost:443'],
    });

    it('takes only the https origin of the same host', async () => {
      const body = () => ({ name: 'S', email: uniqueEmail('scheme'), password: 'plum-tree-41' });
      const plain = await new Client(secure.app).request('POST', '/api/auth/register', body(), {
        origin: 'http://localhost',
      });
      expect(plain.statusCode).toBe(403);
      const tls = await new Client(secure.app).request('POST', '/api/auth/register', body(), {
        origin: 'https://localhost',
        host: 'localhost',
      });
      expect(tls.statusCode, tls.body).toBe(201);
    });
  });
});
