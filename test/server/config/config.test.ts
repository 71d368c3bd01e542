import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/src/config/index.ts';

const sim = { baseUrl: 'http://127.0.0.1:9999', authKey: 'sim-key-123456', projectId: '100500', caller: '380441112233' };

function errorOf(env: Record<string, string>, simulator: typeof sim | null = sim): string {
  try {
    loadConfig(env, simulator ?? undefined);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults in demo mode', () => {
    const c = loadConfig({}, sim);
    expect(c).toMatchObject({
      http: { port: 8080, host: '127.0.0.1', publicUrl: 'http://127.0.0.1:8080', allowedOrigins: ['http://127.0.0.1:8080'] },
      service: {
        demo: true,
        baseUrl: sim.baseUrl,
        authKey: sim.authKey,
        projectId: '100500',
        upstreamTimeoutMs: 8000,
        callback: { caller: '380441112233', callerType: 'default', direction: 'out', managerDst: 1 },
      },
      phone: { defaultCountry: 'UA', allowedCountries: ['UA'] },
      log: { level: 'info' },
      office: { hours: null },
    });
    expect(c.http.trustedProxies.size).toBe(0);
    expect(c.hash.generated).toBe(true);
  });

  it('reads every setting an operator writes', () => {
    const c = loadConfig(
      {
        PORT: '9000',
        HOST: '0.0.0.0',
        PUBLIC_URL: 'https://calls.example.com',
        CALLTRACKING_BASE_URL: 'https://api.example.net/',
        CALLTRACKING_AUTH_KEY: 'real-auth-key-xyz',
        CALLTRACKING_PROJECT_ID: '4242',
        CALLBACK_CALLER: 'scheme-7',
        CALLBACK_CALLER_TYPE: 'scheme',
        CALLBACK_DIRECTION: 'in',
        CALLBACK_MANAGER_DST: '0',
        ALLOWED_ORIGINS: 'https://shop.example.com, https://www.shop.example.com',
        DEFAULT_COUNTRY: 'pl',
        ALLOWED_COUNTRIES: 'PL,UA',
        TRUSTED_PROXIES: '10.0.0.0/8, ::1',
        UPSTREAM_TIMEOUT_MS: '3000',
        LOG_LEVEL: 'warn',
        WORKING_HOURS: 'Mon-Fri 09:00-18:00',
        TIMEZONE: 'Europe/Warsaw',
        HASH_SECRET: 'a-very-long-secret-value',
      },
      undefined,
    );
    expect(c).toMatchObject({
      http: { port: 9000, publicUrl: 'https://calls.example.com', allowedOrigins: ['https://shop.example.com', 'https://www.shop.example.com'] },
      service: {
        demo: false,
        baseUrl: 'https://api.example.net',
        authKey: 'real-auth-key-xyz',
        projectId: '4242',
        upstreamTimeoutMs: 3000,
        callback: { caller: 'scheme-7', callerType: 'scheme', direction: 'in', managerDst: 0 },
      },
      phone: { defaultCountry: 'PL', allowedCountries: ['PL', 'UA'] },
      office: { timeZone: 'Europe/Warsaw' },
      hash: { generated: false },
    });
    expect(c.http.trustedProxies.has('10.1.2.3')).toBe(true);
    expect(c.http.trustedProxies.has('::1')).toBe(true);
    expect(c.http.trustedProxies.has('11.0.0.1')).toBe(false);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT: expected a whole number from 0 to 65535'],
    [{ PORT: '70000' }, 'PORT: expected a whole number from 0 to 65535'],
    [{ DEFAULT_COUNTRY: 'Ukraine' }, 'DEFAULT_COUNTRY: expected an ISO 3166-1 alpha-2 country code'],
    [{ ALLOWED_ORIGINS: 'shop.example.com' }, 'ALLOWED_ORIGINS: expected an origin such as https://shop.example.com, got "shop.example.com"'],
    [{ ALLOWED_ORIGINS: 'https://shop.example.com/path' }, 'ALLOWED_ORIGINS: expected an origin'],
    [{ TRUSTED_PROXIES: '10.0.0.0/33' }, 'TRUSTED_PROXIES: expected IP addresses or CIDRs separated by commas; "10.0.0.0/33" has an invalid prefix length'],
    [{ TRUSTED_PROXIES: 'proxy.local' }, 'TRUSTED_PROXIES: expected IP addresses or CIDRs separated by commas; "proxy.local" is not an IP address'],
    [{ UPSTREAM_TIMEOUT_MS: '5s' }, 'UPSTREAM_TIMEOUT_MS: expected a whole number'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL:'],
    [{ TIMEZONE: 'Mars/Olympus' }, 'TIMEZONE: expected an IANA time zone such as Europe/Kyiv, got "Mars/Olympus"'],
    [{ WORKING_HOURS: 'Funday 09:00-18:00' }, 'WORKING_HOURS: expected office hours such as "Mon-Fri 09:00-18:00; Sat 10:00-14:00"; unknown day "Funday"'],
    [{ WORKING_HOURS: 'Mon 9-18' }, 'WORKING_HOURS: expected office hours such as "Mon-Fri 09:00-18:00; Sat 10:00-14:00"; bad time "9"'],
    [{ CALLBACK_CALLER_TYPE: 'phone' }, 'CALLBACK_CALLER_TYPE:'],
    [{ HASH_SECRET: 'short' }, 'HASH_SECRET: expected a random secret of at least 16 characters'],
  ])('stops on %o with one line naming the setting', (env, message) => {
    const text = errorOf(env as Record<string, string>);
    expect(text).toContain(message);
    expect(text).not.toContain('\n');
  });

  it('requires the Auth-key together with a base URL', () => {
    expect(errorOf({ CALLTRACKING_BASE_URL: 'https://api.example.net' }, null)).toMatch(/^CALLTRACKING_AUTH_KEY: required/);
    expect(errorOf({ CALLTRACKING_BASE_URL: 'https://api.example.net', CALLTRACKING_AUTH_KEY: 'k'.repeat(10) }, null)).toMatch(/^CALLTRACKING_PROJECT_ID: required/);
    expect(errorOf({ CALLTRACKING_BASE_URL: 'ftp://x' }, null)).toMatch(/^CALLTRACKING_BASE_URL: expected an http\(s\) URL/);
  });

  it("falls back to the simulator's project id and caller against an external service, with a warning each", () => {
    const env = { CALLTRACKING_BASE_URL: 'http://127.0.0.1:8090', CALLTRACKING_AUTH_KEY: 'sim-auth-key-0123456789', ALLOWED_ORIGINS: 'https://shop.example' };
    const c = loadConfig(env, undefined, { projectId: '100500', caller: '380441112233' });
    expect(c.service).toMatchObject({ baseUrl: 'http://127.0.0.1:8090', authKey: 'sim-auth-key-0123456789', projectId: '100500' });
    expect(c.service.callback.caller).toBe('380441112233');
    expect(c.warnings).toEqual([expect.stringMatching(/^CALLTRACKING_PROJECT_ID is not set/), expect.stringMatching(/^CALLBACK_CALLER is not set/)]);
    const explicit = loadConfig({ ...env, CALLTRACKING_PROJECT_ID: '42', CALLBACK_CALLER: 'manager1' }, undefined, { projectId: '100500', caller: '380441112233' });
    expect(explicit.warnings).toEqual([]);
    expect(loadConfig({}, sim).warnings).toEqual([]);
  });

  it('requires an origin allowlist outside demo mode', () => {
    const env = { CALLTRACKING_BASE_URL: 'https://api.example.net', CALLTRACKING_AUTH_KEY: 'k'.repeat(10), CALLTRACKING_PROJECT_ID: '1', CALLBACK_CALLER: '380441112233' };
    expect(errorOf(env, null)).toMatch(/^ALLOWED_ORIGINS: required outside demo mode/);
  });

  it('refuses to start without a service or a simulator', () => {
    expect(errorOf({}, null)).toMatch(/^CALLTRACKING_BASE_URL: required when no simulator stands in/);
  });
});
