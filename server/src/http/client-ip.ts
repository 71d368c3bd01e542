// Who is the visitor? The socket's peer, unless that peer is a trusted proxy: then proxy-addr walks
// X-Forwarded-For from the right and takes the first address that is not itself trusted. Anything
// left of that is whatever the client wrote and proves nothing, so a spoofed header from an
// untrusted peer changes nothing.
//
// The answer is one canonical text per address, because limits count clients by it (security #9):
// an IPv4-mapped IPv6 address in any spelling (`::ffff:1.1.1.1`, `::ffff:101:101`,
// `0:0:0:0:0:ffff:1.1.1.1`) is that IPv4 address, and IPv6 is written compressed in lower case.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import proxyaddr from 'proxy-addr';
import type { CidrList } from '../lib/cidr.ts';

export function clientIp(req: IncomingMessage, trusted: CidrList): string {
  const peer = canonicalAddress(req.socket.remoteAddress ?? '') ?? '';
  if (trusted.size === 0) return peer;
  // Garbage where an address should be (proxy-addr returns it as the client): trust nothing beyond
  // our own proxy, which is the peer.
  return canonicalAddress(proxyaddr(req, trusted.trust)) ?? peer;
}

const mapped = /^::ffff:([\da-f]{1,4}):([\da-f]{1,4})$/;

/** The address in one spelling, or null when it is not an IP address as node reads them. */
export function canonicalAddress(address: string): string | null {
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return null;
  // The URL parser writes IPv6 the canonical way (RFC 5952): `::ffff:1.1.1.1` becomes `::ffff:101:101`.
  let text: string;
  try {
    text = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address; // a zone id (`fe80::1%eth0`), which URLs cannot hold: as node gave it
  }
  const v4 = mapped.exec(text);
  if (!v4) return text;
  const high = parseInt(v4[1]!, 16);
  const low = parseInt(v4[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}
