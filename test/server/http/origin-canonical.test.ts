// An allowed origin is one site however its header is cased: a client that is not a browser must
// not escape the site caps or share idempotency keys under another spelling. Over real sockets.
import { describe, expect, it } from 'vitest';
import { postCallback } from '../../support/post-callback.ts';
import { systemPerTest } from '../../support/system.ts';

const start = systemPerTest({ ALLOWED_ORIGINS: 'https://shop.example', TRUSTED_PROXIES: '127.0.0.1', SITE_HOURLY_CAP: '1' });

describe('allowed origins are canonical', () => {
  it('counts a case variant of an allowed origin against the same site cap', async () => {
    const s = await start();
    expect((await postCallback(s, { phone: '+380501110001' }, { origin: 'https://shop.example', forwardedFor: '198.51.100.1' })).status).toBe(202);
    const variant = await postCallback(s, { phone: '+380501110002' }, { origin: 'HTTPS://SHOP.EXAMPLE', forwardedFor: '198.51.100.2' });
    expect(variant.status).toBe(503);
    // CORS answers name the allowed origin as configured.
    expect(variant.headers.get('access-control-allow-origin')).toBe('https://shop.example');
  });
});
