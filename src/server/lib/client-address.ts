import { isIPv6 } from 'node:net';

/**
 * The key a client address is counted under: an IPv4 address as it is, an IPv6 address by its
 * /64 network (one subscriber usually holds a whole /64, so counting single IPv6 addresses would
 * give each client billions of budgets). An IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function clientKey(ip: string): string {
  const address = ip.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head, tail = ''] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = address.includes('::') && tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = address.includes('::')
    ? [...headGroups, ...Array<string>(Math.max(missing, 0)).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
