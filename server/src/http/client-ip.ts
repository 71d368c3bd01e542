// Who is the visitor? The socket's peer, unless that peer is a trusted proxy: then walk
// X-Forwarded-For from the right and take the first address that is not itself trusted. Anything
// left of that is whatever the client wrote and proves nothing, so a spoofed header from an
// untrusted peer changes nothing.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { normalizeAddress, type CidrList } from './cidr.js';

export function clientIp(req: IncomingMessage, trusted: CidrList): string {
  const peer = normalizeAddress(req.socket.remoteAddress ?? '');
  if (trusted.size === 0 || !trusted.has(peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : header ?? '')
    .split(',')
    .map((h) => normalizeAddress(h.trim().replace(/^\[(.*)\]$/, '$1')))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!isIP(hop)) return peer; // garbage in the chain: trust nothing beyond our own proxy
    if (!trusted.has(hop)) return hop;
  }
  return hops[0] ?? peer;
}
