import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { clientIp } from '../../../server/src/http/client-ip.ts';
import { parseCidrList } from '../../../server/src/lib/cidr.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { callbackCalls, QUICK_CALLS, systemPerTest } from '../../support/system.ts';

const req = (peer: string, xff?: string) => ({ socket: { remoteAddress: peer }, headers: xff === undefined ? {} : { 'x-forwarded-for': xff } }) as unknown as IncomingMessage;

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
    // Forms other parsers read as IPv4 (2130706433 is 127.0.0.1) are garbage here too.
    expect(clientIp(req('10.0.0.2', '2130706433'), proxies)).toBe('10.0.0.2');
    expect(clientIp(req('::ffff:127.0.0.1'), parseCidrList(''))).toBe('127.0.0.1');
  });

  it('reads an IPv4-mapped address, however it is spelled, as its IPv4 address (security #9)', () => {
    for (const spelling of ['::ffff:1.1.1.1', '::FFFF:1.1.1.1', '::ffff:101:101', '0:0:0:0:0:ffff:1.1.1.1', '0000:0000:0000:0000:0000:ffff:0101:0101']) {
      expect(clientIp(req('10.0.0.2', spelling), proxies), spelling).toBe('1.1.1.1');
    }
    // A trusted proxy given in a mapped spelling is still that proxy.
    expect(clientIp(req('10.0.0.2', '1.1.1.1, ::ffff:a00:5'), proxies)).toBe('1.1.1.1');
    // IPv6 in one spelling, so one client is one client.
    expect(clientIp(req('10.0.0.2', '2A00:1450:0:0::5'), proxies)).toBe('2a00:1450::5');
  });
});

describe('clients behind a trusted proxy, over real sockets', () => {
  const start = systemPerTest({ ALLOWED_ORIGINS: ORIGIN, TRUSTED_PROXIES: '127.0.0.1', LIMIT_CLIENT_RATE: '1' }, { simulator: { timing: QUICK_CALLS } });

  it('limits an IPv4-mapped X-Forwarded-For together with its IPv4 address (security #9)', async () => {
    const s = await start();
    expect((await postCallback(s, { phone: '+380501234567' }, { forwardedFor: '1.1.1.1' })).status).toBe(202);
    const numbers = ['+380671112233', '+380931234568', '+380971234569', '+380661234560'];
    for (const [i, spelling] of ['::ffff:1.1.1.1', '::ffff:101:101', '0:0:0:0:0:ffff:1.1.1.1', '::ffff:0101:0101'].entries()) {
      const res = await postCallback(s, { phone: numbers[i]! }, { forwardedFor: spelling });
      expect(res.status, spelling).toBe(429);
      expect(res.json.error!.code).toBe('rate_limited');
    }
    expect(callbackCalls(s)).toHaveLength(1);
  });

  it('passes the IPv4 address to the service when the proxy wrote it mapped', async () => {
    const s = await start();
    expect((await postCallback(s, { phone: '+380501234567' }, { forwardedFor: '0:0:0:0:0:ffff:1.1.1.1' })).status).toBe(202);
    expect(callbackCalls(s).map((c) => (JSON.parse(c.body) as { params: { clientIp: string } }).params.clientIp)).toEqual(['1.1.1.1']);
  });
});
