// Which "client" a request counts against. IPv4: the address. IPv6: its /64, because one host
// commonly holds a whole /64 and can pick a fresh address for every request; counting single
// IPv6 addresses would let one attacker look like 2^64 visitors. An IPv4-mapped IPv6 address
// (::ffff:198.51.100.7, what a dual-stack socket reports for an IPv4 peer) is its IPv4 address:
// taken as a /64, every IPv4 visitor would be one client (0:0:0:0::/64), and one of them could
// use up everybody's limits.
import { isIP } from 'node:net';

export function clientKey(address: string): string {
  const family = isIP(address);
  if (family === 4) return address;
  if (family === 6) return mappedIPv4(address) ?? `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
  return `other:${address}`;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:xxxx:xxxx), or null. */
export function mappedIPv4(address: string): string | null {
  const g = expandIPv6(address);
  if (g.length !== 8 || g.slice(0, 5).some((x) => x !== '0000') || g[5] !== 'ffff') return null;
  const hi = parseInt(g[6]!, 16);
  const lo = parseInt(g[7]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Eight 16-bit groups as 4-digit lowercase hex; an embedded IPv4 tail becomes two groups. */
export function expandIPv6(address: string): string[] {
  let a = address.toLowerCase().split('%')[0]!;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (v4) {
    const [b0, b1, b2, b3] = v4.slice(1).map(Number) as [number, number, number, number];
    a = a.slice(0, v4.index) + ((b0 << 8) | b1).toString(16) + ':' + ((b2 << 8) | b3).toString(16);
  }
  const [head = '', tail] = a.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => g.padStart(4, '0'));
}
