// The protection settings as an operator writes them: defaults from design.md §6, every value
// configurable, and a bad value stops startup naming its variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/config.ts';

const sim = { baseUrl: 'http://127.0.0.1:9', authKey: 'sim-auth-key-0123456789', projectId: '1', caller: '380441112233' };

describe('protection settings', () => {
  it('defaults to the design limits, no CAPTCHA and open metrics', () => {
    const { protect } = loadConfig({}, sim);
    expect(protect.limits).toEqual({
      numberCooldownSec: 120, numberDaily: 3, numberInFlight: 1,
      clientRate: 3, clientRateWindowSec: 600, clientDaily: 10, clientNumbersDaily: 2, clientRefusals: 20,
      prefixRate: 5, prefixWindowSec: 600, siteHourlyCap: 100, siteDailyCap: 500, maxKeys: 1_000_000,
    });
    expect(protect.turnstile).toBeNull();
    expect(protect.metricsToken).toBeNull();
    expect(protect.http).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 15_000, keepAliveTimeoutMs: 5_000, maxConnections: 1_000, maxConnectionsPerClient: 100 });
    expect(protect.idempotency).toEqual({ ttlSec: 86_400, maxKeys: 100_000 });
  });

  it('reads every setting from the environment', () => {
    const { protect } = loadConfig(
      {
        LIMIT_NUMBER_COOLDOWN_SECONDS: '0', LIMIT_NUMBER_DAILY: '5', LIMIT_CLIENT_RATE: '4', SITE_HOURLY_CAP: '50',
        TURNSTILE_SECRET: '0x4AAAAAAA-secret', TURNSTILE_VERIFY_URL: 'http://127.0.0.1:1/verify', MAX_CONNECTIONS: '20', METRICS_TOKEN: 'metrics-token-0123456789',
      },
      sim,
    );
    expect(protect.limits).toMatchObject({ numberCooldownSec: 0, numberDaily: 5, clientRate: 4, siteHourlyCap: 50 });
    expect(protect.turnstile).toEqual({ secret: '0x4AAAAAAA-secret', verifyUrl: 'http://127.0.0.1:1/verify' });
    expect(protect.http.maxConnections).toBe(20);
    expect(protect.metricsToken).toBe('metrics-token-0123456789');
  });

  it.each([
    ['LIMIT_NUMBER_DAILY', '0'],
    ['LIMIT_CLIENT_RATE', 'three'],
    ['SITE_DAILY_CAP', '70000'],
    ['LIMIT_CLIENT_NUMBERS_DAILY', '33'],
    ['LIMIT_CLIENT_REFUSALS', '0'],
    ['LIMITER_MAX_KEYS', '10'],
    ['TURNSTILE_VERIFY_URL', 'ftp://x'],
    ['METRICS_TOKEN', 'short'],
    ['MAX_CONNECTIONS', '-1'],
  ])('stops startup on a bad %s naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value }, sim)).toThrowError(ConfigError);
    expect(() => loadConfig({ [name]: value }, sim)).toThrowError(new RegExp(`^${name}: `));
  });

  it('refuses a header timeout longer than the request timeout', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '15000' }, sim)).toThrowError(/^HEADERS_TIMEOUT_MS: expected at most REQUEST_TIMEOUT_MS/);
  });
});
