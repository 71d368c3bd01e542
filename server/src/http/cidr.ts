// Address lists given as CIDRs or single addresses (TRUSTED_PROXIES). node:net's BlockList does the
// matching, for IPv4 and IPv6 alike; IPv4-mapped IPv6 peers (::ffff:10.0.0.1) are unwrapped first.
// IPv4 addresses against IPv4 entries, the case of every request behind a proxy, are matched as
// 32-bit numbers: BlockList builds an address object per check, which costs more than the rest
// of finding the client.
import { BlockList, isIP } from 'node:net';

export interface CidrList {
  has(address: string): boolean;
  readonly size: number;
}

const mappedV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

export function normalizeAddress(address: string): string {
  if (address.charCodeAt(0) !== 58 /* : */) return address;
  const mapped = mappedV4.exec(address);
  return mapped ? mapped[1]! : address;
}

/** A dotted-quad IPv4 address as an unsigned 32-bit number; -1 for anything net.isIP would not call IPv4. */
export function ipv4Number(text: string): number {
  let value = 0;
  let octets = 0;
  let i = 0;
  while (octets < 4) {
    const start = i;
    let octet = 0;
    while (i < text.length && i - start < 4) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) break;
      octet = octet * 10 + (c - 48);
      i++;
    }
    const digits = i - start;
    // One to three digits, no leading zero (net.isIP refuses "01"), at most 255.
    if (digits === 0 || digits > 3 || (digits > 1 && text.charCodeAt(start) === 48) || octet > 255) return -1;
    value = value * 256 + octet;
    octets++;
    if (octets < 4) {
      if (text.charCodeAt(i) !== 46 /* . */) return -1;
      i++;
    }
  }
  return i === text.length ? value : -1;
}

export function parseCidrList(text: string): CidrList {
  const list = new BlockList();
  /** IPv4 entries as [network, mask]. */
  const v4: Array<[number, number]> = [];
  let hasV6 = false;
  const entries = text.split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address = '', prefixText] = entry.split('/');
    const family = isIP(address);
    if (!family) throw new Error(`"${entry}" is not an IP address or CIDR (e.g. 10.0.0.0/8, 2001:db8::/32)`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (family === 6) hasV6 = true;
    if (prefixText === undefined) {
      list.addAddress(address, type);
      if (family === 4) v4.push([ipv4Number(address), 0xffffffff]);
      continue;
    }
    const prefix = Number(prefixText);
    if (!/^\d+$/.test(prefixText) || prefix > (family === 4 ? 32 : 128)) throw new Error(`"${entry}" has an invalid prefix length`);
    list.addSubnet(address, prefix, type);
    if (family === 4) {
      const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
      v4.push([(ipv4Number(address) & mask) >>> 0, mask]);
    }
  }
  return {
    size: entries.length,
    has(address) {
      const a = normalizeAddress(address);
      const n = ipv4Number(a);
      if (n >= 0) {
        for (const [network, mask] of v4) if (((n & mask) >>> 0) === network) return true;
        // IPv6 entries may cover IPv4 addresses too: BlockList knows how.
        return hasV6 && list.check(a, 'ipv4');
      }
      return isIP(a) === 6 && list.check(a, 'ipv6');
    },
  };
}
