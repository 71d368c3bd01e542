// TRUSTED_PROXIES: the addresses and CIDRs whose X-Forwarded-For is believed, compiled by
// proxy-addr, the matcher behind Express's and Fastify's `trust proxy`, so the relay applies the
// same rule they do (IPv4 and IPv6 alike; an IPv4-mapped IPv6 address matches its IPv4 entry).
// Entries are checked here first, strictly, so a typo stops startup with a readable line instead
// of meaning something else: proxy-addr also takes forms like `10.1` or `2130706433` for IPv4.
import { isIP } from 'node:net';
import proxyaddr from 'proxy-addr';
import { RecentCache } from './recent-cache.ts';

/**
 * Addresses whose answer is remembered. proxy-addr asks about every hop it walks past, and the
 * first hop is the relay's own peer, a proxy that sends every request: parsing it again each time
 * (ipaddr.js) was 2 % of the relay's CPU under a flood. The client's own address, the last hop, is
 * never asked about, so ever-new clients do not churn this.
 */
const REMEMBERED_ADDRESSES = 1_024;

export interface CidrList {
  /** Whether a proxy at this address is trusted. */
  has(address: string): boolean;
  /** The same test in the form proxy-addr takes. */
  readonly trust: (address: string, hop: number) => boolean;
  readonly size: number;
}

/** Express's names for well-known ranges, which proxy-addr expands itself. */
const namedRanges = new Set(['loopback', 'linklocal', 'uniquelocal']);

export function parseCidrList(text: string): CidrList {
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (namedRanges.has(entry)) continue;
    const [address = '', prefixText, extra] = entry.split('/');
    const family = isIP(address);
    if (!family || extra !== undefined) throw new Error(`"${entry}" is not an IP address or CIDR (e.g. 10.0.0.0/8, 2001:db8::/32, or loopback)`);
    const max = family === 4 ? 32 : 128;
    if (prefixText !== undefined && (!/^\d+$/.test(prefixText) || Number(prefixText) < 1 || Number(prefixText) > max)) {
      throw new Error(`"${entry}" has an invalid prefix length (1 to ${max})`);
    }
  }
  const trust = entries.length === 0 ? () => false : remembered(proxyaddr.compile(entries));
  return { size: entries.length, trust, has: (address) => trust(address, 0) };
}

/** The compiled matcher with its recent answers kept (it ignores the hop index; so does this). */
function remembered(matches: (address: string, hop: number) => boolean): (address: string, hop: number) => boolean {
  const answers = new RecentCache<string, boolean>(REMEMBERED_ADDRESSES);
  return (address, hop) => {
    let trusted = answers.get(address);
    if (trusted === undefined) {
      trusted = matches(address, hop);
      answers.set(address, trusted);
    }
    return trusted;
  };
}
