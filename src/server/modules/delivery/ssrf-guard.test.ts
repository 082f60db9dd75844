import { describe, expect, it } from 'vitest';
import { EndpointRefused, isPublicAddress, pinnedLookup, resolveEndpoint } from './ssrf-guard';

const fakeLookup = (answers: Record<string, { address: string; family: number }[]>) =>
  (async (host: string) => {
    const found = answers[host];
    if (!found) throw new Error('ENOTFOUND');
    return found;
  }) as never;

describe('isPublicAddress', () => {
  it.each([
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '127.0.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    // IPv4-compatible IPv6 (issue 24 item 12): loopback and the metadata address in disguise
    '::127.0.0.1',
    '::a9fe:a9fe',
    '::7f00:1',
    // not global unicast
    '100::1',
    '4000::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('resolveEndpoint', () => {
  it('refuses other schemes and credentials in the URL', async () => {
    await expect(resolveEndpoint('ftp://example.com/x', false)).rejects.toThrow(EndpointRefused);
    await expect(resolveEndpoint('https://u:p@example.com/x', false)).rejects.toThrow(
      /user name or password/,
    );
    await expect(resolveEndpoint('not a url', false)).rejects.toThrow(/not a valid URL/);
  });

  it('refuses http:// (personal data in clear) unless WEBHOOK_ALLOW_PRIVATE, before any lookup', async () => {
    const lookup = fakeLookup({ 'crm.example.com': [{ address: '93.184.216.34', family: 4 }] });
    const refusal = resolveEndpoint('http://crm.example.com/hook', false, lookup);
    await expect(refusal).rejects.toThrow(/must start with https:\/\//);
    await expect(refusal).rejects.toMatchObject({ retryable: false });
    const allowed = await resolveEndpoint('http://crm.example.com/hook', true, lookup);
    expect(allowed.url.protocol).toBe('http:');
  });

  it('refuses IP literals and names that resolve to internal addresses', async () => {
    await expect(resolveEndpoint('https://127.0.0.1:8080/', false)).rejects.toThrow(/refused/);
    await expect(resolveEndpoint('https://[::1]/', false)).rejects.toThrow(/refused/);
    const lookup = fakeLookup({
      'crm.example.com': [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
    });
    await expect(resolveEndpoint('https://crm.example.com/hook', false, lookup)).rejects.toThrow(
      /10\.0\.0\.5/,
    );
  });

  it('answers the checked address, and pins it for the connection', async () => {
    const lookup = fakeLookup({ 'crm.example.com': [{ address: '93.184.216.34', family: 4 }] });
    const resolved = await resolveEndpoint('https://crm.example.com/hook', false, lookup);
    expect(resolved).toMatchObject({ address: '93.184.216.34', family: 4 });
    const answer = await new Promise((resolve) =>
      pinnedLookup(resolved)('rebound.example.com', {}, (_err, address) => resolve(address)),
    );
    expect(answer).toBe('93.184.216.34');
  });

  it('allows internal addresses when told to (WEBHOOK_ALLOW_PRIVATE)', async () => {
    const resolved = await resolveEndpoint('http://127.0.0.1:9/', true);
    expect(resolved.address).toBe('127.0.0.1');
  });

  it('refuses a name that does not resolve', async () => {
    await expect(
      resolveEndpoint('https://nowhere.invalid/', false, fakeLookup({})),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/could not be resolved/),
      retryable: true,
    });
  });
});
