import { describe, expect, it } from 'vitest';
import { LoginThrottle, RegistrationThrottle } from './login-throttle';

const LIMITS = { perAccountAddress: 5, perAccount: 12, perIp: 30, windowMs: 60_000 };

describe('LoginThrottle', () => {
  it('locks an account for the address that failed five times, not for another address', async () => {
    const throttle = new LoginThrottle(LIMITS);
    for (let i = 0; i < 5; i++) expect(await throttle.reserve('a@x.com', '10.0.0.1', 0)).toBe(0);
    expect(await throttle.reserve('a@x.com', '10.0.0.1', 0)).toBe(60_000);
    // the owner, elsewhere: allowed, and a success there forgives nothing of the guesser's
    expect(await throttle.reserve('a@x.com', '10.0.0.2', 1000)).toBe(0);
    await throttle.recordSuccess('a@x.com', '10.0.0.2', 1000);
    expect(await throttle.reserve('a@x.com', '10.0.0.1', 1000)).toBe(59_000);
    // the window ends
    expect(await throttle.reserve('a@x.com', '10.0.0.1', 60_000)).toBe(0);
  });

  it('locks the account for everyone once its failures from all addresses reach the cap', async () => {
    const throttle = new LoginThrottle(LIMITS);
    for (let i = 0; i < 12; i++)
      expect(await throttle.reserve('a@x.com', `10.0.1.${i}`, 0)).toBe(0);
    expect(await throttle.reserve('a@x.com', '10.0.2.1', 0)).toBeGreaterThan(0);
    expect(await throttle.reserve('b@x.com', '10.0.2.1', 0)).toBe(0);
  });

  it('gives the slot back when the password was never checked', async () => {
    const throttle = new LoginThrottle(LIMITS);
    for (let i = 0; i < 5; i++) {
      expect(await throttle.reserve('a@x.com', '10.0.0.1', 0)).toBe(0);
      await throttle.release('a@x.com', '10.0.0.1', 0);
    }
    expect(await throttle.reserve('a@x.com', '10.0.0.1', 0)).toBe(0);
  });

  it('counts an IPv6 client by its /64', async () => {
    const throttle = new LoginThrottle(LIMITS);
    for (let i = 1; i <= 5; i++)
      expect(await throttle.reserve('a@x.com', `2001:db8:1:2::${i}`, 0)).toBe(0);
    expect(await throttle.reserve('a@x.com', '2001:db8:1:2:ffff::9', 0)).toBeGreaterThan(0);
    expect(await throttle.reserve('a@x.com', '2001:db8:1:3::1', 0)).toBe(0);
  });
});

describe('RegistrationThrottle', () => {
  it('limits each address and all addresses together', async () => {
    const throttle = new RegistrationThrottle({ perAddress: 2, total: 3, windowMs: 1000 });
    expect(await throttle.reserve('10.0.0.1', 0)).toBe(0);
    expect(await throttle.reserve('10.0.0.1', 0)).toBe(0);
    expect(await throttle.reserve('10.0.0.1', 0)).toBe(1000);
    expect(await throttle.reserve('10.0.0.2', 0)).toBe(0);
    expect(await throttle.reserve('10.0.0.3', 0)).toBe(1000);
    await throttle.release('10.0.0.2', 0);
    expect(await throttle.reserve('10.0.0.3', 0)).toBe(0);
    expect(await throttle.reserve('10.0.0.1', 1000)).toBe(0);
  });
});
