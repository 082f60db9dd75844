/**
 * TRUST_PROXY: behind a load balancer the login throttle counts each client by the address the
 * trusted proxy forwards, not the proxy's own; anyone else's X-Forwarded-For counts for nothing.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config/env';
import { Client, registerAgent, setupTestApp, uniqueEmail } from './support/test-app';

// the test requests arrive from 127.0.0.1, here the load balancer
const ctx = setupTestApp({ TRUST_PROXY: '127.0.0.1' });

const PER_IP_FAILURES = 30;

function failedLogin(forwardedFor: string) {
  return new Client(ctx.app).request(
    'POST',
    '/api/auth/login',
    { email: uniqueEmail('spray'), password: 'wrong-pw' },
    { 'x-forwarded-for': forwardedFor },
  );
}

describe('behind a trusted proxy', () => {
  it('throttles the client that sprays accounts, and only that client', async () => {
    for (let i = 0; i < PER_IP_FAILURES; i++) {
      expect((await failedLogin('203.0.113.5')).statusCode).toBe(401);
    }
    const blocked = await failedLogin('203.0.113.5');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(
      /^Too many failed attempts. Try again in \d+ minutes?\.$/,
    );

    // another client behind the same load balancer still signs in
    const agent = await registerAgent(ctx.app);
    const other = await new Client(ctx.app).request(
      'POST',
      '/api/auth/login',
      { email: agent.email, password: agent.password },
      { 'x-forwarded-for': '198.51.100.7' },
    );
    expect(other.statusCode).toBe(200);
    expect(other.json().user.email).toBe(agent.email);
  });

  it('counts a caller that is not the proxy by its own address, whatever it forwards', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= PER_IP_FAILURES; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '192.0.2.44',
        headers: { 'x-forwarded-for': `198.18.0.${i}` },
        payload: { email: uniqueEmail('forged'), password: 'wrong-pw' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, PER_IP_FAILURES).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('TRUST_PROXY setting', () => {
  const read = (value?: string) =>
    loadConfig({ NODE_ENV: 'test', ...(value === undefined ? {} : { TRUST_PROXY: value }) })
      .TRUST_PROXY;

  it('trusts no proxy unless told, and takes addresses, ranges and range names', () => {
    expect(read()).toBe(false);
    expect(read('false')).toBe(false);
    expect(read(' 10.0.0.0/8, loopback ,fd00::/8,192.168.1.10')).toBe(
      '10.0.0.0/8,loopback,fd00::/8,192.168.1.10',
    );
  });

  it('refuses hop counts and anything that is not an address', () => {
    for (const bad of ['1', 'true', 'proxy.example.com', '10.0.0.0/33', '10.0.0.1/8/1', '']) {
      expect(() => read(bad), bad).toThrow(/TRUST_PROXY: expected false, or proxy addresses/);
    }
  });
});
