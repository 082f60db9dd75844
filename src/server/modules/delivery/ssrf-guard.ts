/**
 * The CRM webhook's SSRF guard (SECURITY.md): an agent names a URL and the server POSTs to it, so
 * the URL must not reach the server's own network. Checked when the URL is saved and again at
 * every send, where the address the check resolved is the one the connection uses (a DNS answer
 * that changes between the check and the connect, "DNS rebinding", cannot slip a private address
 * in). Leads carry personal data, so only https:// is accepted. WEBHOOK_ALLOW_PRIVATE=true turns
 * the address check off and lets http:// through (tests, private networks).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Why an endpoint is refused, in words the agent can act on. `retryable`: the name could not be
 * resolved now (it may be later); every other refusal stands until the agent changes the URL.
 */
export class EndpointRefused extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'EndpointRefused';
  }
}

/** An https URL (or http where allowed) without credentials; anything else is refused. */
export function parseEndpointUrl(raw: string, allowHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EndpointRefused('The webhook URL is not a valid URL');
  }
  if (url.protocol === 'http:' && !allowHttp)
    throw new EndpointRefused(
      'The webhook URL must start with https://: leads carry personal data, http:// is refused',
    );
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new EndpointRefused('The webhook URL must start with https://');
  if (url.username || url.password)
    throw new EndpointRefused(
      'The webhook URL must not carry a user name or password: use the Authorization header',
    );
  if (!url.hostname) throw new EndpointRefused('The webhook URL has no host');
  return url;
}

/**
 * Whether an address is on the public internet: ipaddr.js names every special range (private,
 * loopback, link-local, unique-local, CGNAT, multicast, unspecified, broadcast, reserved, the
 * IPv6 forms that embed an IPv4 address...), and only plain `unicast` passes. An IPv4-mapped IPv6
 * address is judged as the IPv4 address it carries; any other IPv6 address must be global
 * unicast (2000::/3): the deprecated IPv4-compatible form (`::127.0.0.1`) and whatever else
 * ipaddr.js calls plain unicast outside it are refused.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
    return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST);
  }
  return parsed.range() === 'unicast';
}

/** 2000::/3, where every global unicast IPv6 address lies. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

export interface ResolvedEndpoint {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Resolves the endpoint's host once and checks every address it resolves to (a name with one
 * private address among public ones is refused: the connection could pick it).
 */
export async function resolveEndpoint(
  raw: string,
  allowPrivate: boolean,
  lookup: typeof dnsLookup = dnsLookup,
): Promise<ResolvedEndpoint> {
  const url = parseEndpointUrl(raw, allowPrivate);
  const host = hostOf(url);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new EndpointRefused(`The webhook host ${host} could not be resolved`, true);
    }
  }
  if (addresses.length === 0)
    throw new EndpointRefused(`The webhook host ${host} could not be resolved`, true);
  if (!allowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused)
      throw new EndpointRefused(
        `The webhook host ${host} resolves to ${refused.address}, a private, loopback or otherwise internal address: it is refused`,
      );
  }
  const [first] = addresses;
  return { url, address: first!.address, family: first!.family === 6 ? 6 : 4 };
}

/** A `lookup` for http(s).request that always answers the address already checked. */
export function pinnedLookup(resolved: ResolvedEndpoint): LookupFunction {
  return (_hostname, options, callback) => {
    if (options?.all) {
      (callback as (err: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address: resolved.address, family: resolved.family },
      ]);
    } else {
      callback(null, resolved.address, resolved.family);
    }
  };
}
