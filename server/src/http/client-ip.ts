// Who is the visitor? The socket's peer, unless that peer is a trusted proxy: then walk
// X-Forwarded-For from the right and take the first address that is not itself trusted. Anything
// left of that is whatever the client wrote and proves nothing, so a spoofed header from an
// untrusted peer changes nothing.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { normalizeAddress, type CidrList } from './cidr.ts';

export function clientIp(req: IncomingMessage, trusted: CidrList): string {
  const peer = normalizeAddress(req.socket.remoteAddress ?? '');
  if (trusted.size === 0 || !trusted.has(peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  if (header === undefined) return peer; // our proxy added nothing: it is the client's only hop
  const hops = (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((h) => normalizeAddress(unbracket(h.trim())))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!isIP(hop)) return peer; // garbage in the chain: trust nothing beyond our own proxy
    if (!trusted.has(hop)) return hop;
  }
  return hops[0] ?? peer;
}

/** `[2001:db8::1]` → `2001:db8::1` (some proxies bracket IPv6 addresses). */
function unbracket(hop: string): string {
  return hop.charCodeAt(0) === 91 /* [ */ && hop.charCodeAt(hop.length - 1) === 93 /* ] */ ? hop.slice(1, -1) : hop;
}
