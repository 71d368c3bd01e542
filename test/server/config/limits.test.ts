// The protection settings as an operator writes them: the defaults of docs/operations.md (Limits), every value
// configurable, and a bad value stops startup naming its variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/src/config/index.ts';

const sim = { baseUrl: 'http://127.0.0.1:9', authKey: 'sim-auth-key-0123456789', projectId: '1', caller: '380441112233' };

describe('protection settings', () => {
  it('defaults to the design limits, no CAPTCHA and open metrics', () => {
    const { protect } = loadConfig({}, sim);
    expect(protect.limits).toEqual({
      numberCooldownSec: 120,
      numberDaily: 3,
      numberInFlight: 1,
      clientRate: 3,
      clientRateWindowSec: 600,
      clientDaily: 10,
      clientNumbersDaily: 2,
      clientRefusals: 20,
      prefixRate: 5,
      prefixWindowSec: 600,
      siteHourlyCap: 100,
      siteDailyCap: 500,
      maxKeys: 1_000_000,
      networks: { ipv4_24: { hourly: 20, daily: 60 }, ipv6_56: { hourly: 10, daily: 30 }, ipv6_48: { hourly: 20, daily: 60 } },
      networkRefusals: 100,
      // A fifth of the hourly cap in five minutes.
      // and half of it within the hour.
      surge: { calls: 20, windowSec: 300, hourlyCalls: 50, networkCalls: 2 },
    });
    expect(protect.turnstile).toBeNull();
    expect(protect.metricsToken).toBeNull();
    expect(protect.http).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 15_000, keepAliveTimeoutMs: 5_000, maxConnections: 1_000, maxConnectionsPerClient: 100 });
    expect(protect.idempotency).toEqual({ ttlSec: 86_400, maxKeys: 100_000 });
  });

  it('reads every setting from the environment', () => {
    const { protect } = loadConfig(
      {
        LIMIT_NUMBER_COOLDOWN_SECONDS: '0',
        LIMIT_NUMBER_DAILY: '5',
        LIMIT_CLIENT_RATE: '4',
        SITE_HOURLY_CAP: '50',
        TURNSTILE_SECRET: '0x4AAAAAAA-secret',
        TURNSTILE_VERIFY_URL: 'http://127.0.0.1:1/verify',
        MAX_CONNECTIONS: '20',
        METRICS_TOKEN: 'metrics-token-0123456789',
      },
      sim,
    );
    expect(protect.limits).toMatchObject({ numberCooldownSec: 0, numberDaily: 5, clientRate: 4, siteHourlyCap: 50 });
    expect(protect.turnstile).toEqual({ secret: '0x4AAAAAAA-secret', verifyUrl: 'http://127.0.0.1:1/verify', required: 'always' });
    expect(protect.http.maxConnections).toBe(20);
    expect(protect.metricsToken).toBe('metrics-token-0123456789');
  });

  it('reads the network and surge settings; the surge figure follows the hourly cap unless set', () => {
    const { protect } = loadConfig(
      {
        LIMIT_NETWORK_IPV4_24_HOURLY: '0',
        LIMIT_NETWORK_IPV4_24_DAILY: '7',
        LIMIT_NETWORK_IPV6_56_HOURLY: '3',
        LIMIT_NETWORK_IPV6_56_DAILY: '0',
        LIMIT_NETWORK_IPV6_48_HOURLY: '64',
        LIMIT_NETWORK_IPV6_48_DAILY: '100',
        LIMIT_NETWORK_REFUSALS: '9',
        SITE_HOURLY_CAP: '1000',
        SURGE_WINDOW_SECONDS: '600',
        SURGE_NETWORK_CALLS: '3',
        SURGE_CAP_PERCENT: '80',
        TURNSTILE_SECRET: '0x4AAAAAAA-secret',
        TURNSTILE_REQUIRED: 'surge',
      },
      sim,
    );
    expect(protect.limits.networks).toEqual({ ipv4_24: { hourly: 0, daily: 7 }, ipv6_56: { hourly: 3, daily: 0 }, ipv6_48: { hourly: 64, daily: 100 } });
    expect(protect.limits.networkRefusals).toBe(9);
    expect(protect.limits.surge).toEqual({ calls: 200, windowSec: 600, hourlyCalls: 800, networkCalls: 3 });
    expect(loadConfig({ SURGE_CAP_PERCENT: '0' }, sim).protect.limits.surge.hourlyCalls).toBe(0);
    expect(protect.turnstile?.required).toBe('surge');
    expect(loadConfig({ SURGE_CALLS: '0' }, sim).protect.limits.surge.calls).toBe(0);
    // A small cap still needs a few calls to surge: the breaker is then the first defence.
    expect(loadConfig({ SITE_HOURLY_CAP: '3' }, sim).protect.limits.surge).toMatchObject({ calls: 5, hourlyCalls: 5 });
  });

  it('refuses TURNSTILE_REQUIRED=surge without the CAPTCHA it would turn on', () => {
    expect(() => loadConfig({ TURNSTILE_REQUIRED: 'surge' }, sim)).toThrowError(/^TURNSTILE_REQUIRED: expected always while TURNSTILE_SECRET is unset .*, got "surge"$/);
  });

  it.each([
    ['LIMIT_NETWORK_IPV4_24_HOURLY', '65'],
    ['LIMIT_NETWORK_IPV6_48_HOURLY', 'many'],
    ['LIMIT_NETWORK_IPV6_56_DAILY', '70000'],
    ['LIMIT_NETWORK_REFUSALS', '0'],
    ['SURGE_WINDOW_SECONDS', '10'],
    ['SURGE_NETWORK_CALLS', '9'],
    ['SURGE_CALLS', '-3'],
    ['SURGE_CAP_PERCENT', '101'],
    ['TURNSTILE_REQUIRED', 'sometimes'],
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
