import { describe, expect, it } from 'vitest';
import { clientKey } from './client-address';

describe('clientKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6 and groups IPv6 by /64', () => {
    expect(clientKey('192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('2001:0db8:0000:0000:1:2:3:4')).toBe('2001:db8:0:0::/64');
    expect(clientKey('2001:DB8:aa:bb:cc::%eth0')).toBe('2001:db8:aa:bb::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });
});
