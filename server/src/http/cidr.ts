// Address lists given as CIDRs or single addresses (TRUSTED_PROXIES). node:net's BlockList does the
// matching, for IPv4 and IPv6 alike; IPv4-mapped IPv6 peers (::ffff:10.0.0.1) are unwrapped first.
import { BlockList, isIP } from 'node:net';

export interface CidrList {
  has(address: string): boolean;
  readonly size: number;
}

export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

export function parseCidrList(text: string): CidrList {
  const list = new BlockList();
  const entries = text.split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address = '', prefixText] = entry.split('/');
    const family = isIP(address);
    if (!family) throw new Error(`"${entry}" is not an IP address or CIDR (e.g. 10.0.0.0/8, 2001:db8::/32)`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefixText === undefined) {
      list.addAddress(address, type);
      continue;
    }
    const prefix = Number(prefixText);
    if (!/^\d+$/.test(prefixText) || prefix > (family === 4 ? 32 : 128)) throw new Error(`"${entry}" has an invalid prefix length`);
    list.addSubnet(address, prefix, type);
  }
  return {
    size: entries.length,
    has(address) {
      const a = normalizeAddress(address);
      const family = isIP(a);
      return family !== 0 && list.check(a, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}
