// The networks a visitor can rotate through, each counted on its own besides the client itself
// (client-key.ts): one IPv6 customer commonly holds a /56 or a /48 (256 or 65,536 /64s), and one
// IPv4 attacker often rents neighbouring addresses of one /24. A fresh /64 per request must not
// make a fresh visitor, so each network has its own, higher, limit (settings.ts).
import { isIP } from 'node:net';
import { expandIPv6, mappedIPv4 } from './client-key.ts';

import type { NetworkSize } from '../config/limits.ts';

export type { NetworkSize };

export interface Network {
  size: NetworkSize;
  /** The network in CIDR form, e.g. `198.51.100.0/24`, `2001:0db8:0001:0000::/48`. */
  prefix: string;
}

/** The networks of an address, narrowest first; none for what is not an IP address. */
export function networksOf(address: string): Network[] {
  const family = isIP(address);
  const v4 = family === 4 ? address : family === 6 ? mappedIPv4(address) : null;
  if (v4) return [{ size: 'ipv4_24', prefix: `${v4.slice(0, v4.lastIndexOf('.'))}.0/24` }];
  if (family !== 6) return [];
  const g = expandIPv6(address);
  return [
    { size: 'ipv6_56', prefix: `${g.slice(0, 3).join(':')}:${g[3]!.slice(0, 2)}00::/56` },
    { size: 'ipv6_48', prefix: `${g.slice(0, 3).join(':')}::/48` },
  ];
}

/** The widest network of an address: the one a surge is traced to (IPv4 /24, IPv6 /48). */
export function widestNetwork(address: string): Network | undefined {
  const all = networksOf(address);
  return all[all.length - 1];
}
