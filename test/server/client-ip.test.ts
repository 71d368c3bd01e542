import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { clientIp } from '../../server/src/http/client-ip.ts';
import { parseCidrList } from '../../server/src/http/cidr.ts';

const req = (peer: string, xff?: string) =>
  ({ socket: { remoteAddress: peer }, headers: xff === undefined ? {} : { 'x-forwarded-for': xff } }) as unknown as IncomingMessage;

describe('clientIp', () => {
  const proxies = parseCidrList('10.0.0.0/8, 2001:db8::/32');

  it('uses the socket address when no proxy is trusted, whatever the header says', () => {
    expect(clientIp(req('203.0.113.7', '1.2.3.4'), parseCidrList(''))).toBe('203.0.113.7');
  });

  it('ignores X-Forwarded-For from an untrusted peer', () => {
    expect(clientIp(req('198.51.100.1', '1.2.3.4'), proxies)).toBe('198.51.100.1');
  });

  it('takes the rightmost untrusted address behind trusted proxies', () => {
    expect(clientIp(req('10.0.0.2', '6.6.6.6, 203.0.113.9, 10.0.0.5'), proxies)).toBe('203.0.113.9');
    expect(clientIp(req('::ffff:10.0.0.2', '203.0.113.9'), proxies)).toBe('203.0.113.9');
    expect(clientIp(req('2001:db8::1', '2a00:1450::5'), proxies)).toBe('2a00:1450::5');
  });

  it('falls back to the proxy on garbage, and unwraps IPv4-mapped peers', () => {
    expect(clientIp(req('10.0.0.2', 'not-an-ip'), proxies)).toBe('10.0.0.2');
    expect(clientIp(req('::ffff:127.0.0.1'), parseCidrList(''))).toBe('127.0.0.1');
  });
});
