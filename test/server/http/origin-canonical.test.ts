// An allowed origin is one site however its header is cased: a client that is not a browser must
// not escape the site caps or share idempotency keys under another spelling. Over real sockets.
import { describe, expect, it } from 'vitest';
import { systemPerTest, type System } from '../../support/system.ts';

const start = systemPerTest({ ALLOWED_ORIGINS: 'https://shop.example', TRUSTED_PROXIES: '127.0.0.1', SITE_HOURLY_CAP: '1' });

function post(s: System, origin: string, phone: string, client: string) {
  return fetch(`${s.relayUrl}/api/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, 'x-forwarded-for': client },
    body: JSON.stringify({ phone }),
  });
}

describe('allowed origins are canonical', () => {
  it('counts a case variant of an allowed origin against the same site cap', async () => {
    const s = await start();
    expect((await post(s, 'https://shop.example', '+380501110001', '198.51.100.1')).status).toBe(202);
    const variant = await post(s, 'HTTPS://SHOP.EXAMPLE', '+380501110002', '198.51.100.2');
    expect(variant.status).toBe(503);
    // CORS answers name the allowed origin as configured.
    expect(variant.headers.get('access-control-allow-origin')).toBe('https://shop.example');
  });
});
