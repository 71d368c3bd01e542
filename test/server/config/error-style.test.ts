// Every area's settings fail in the one style an operator learns once: one line, the variable's
// name first, then what is expected ("NAME: expected …", with the value unless it is a secret, or
// "NAME: required when … (…)").
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/src/config/index.ts';

const sim = { baseUrl: 'http://127.0.0.1:9999', authKey: 'sim-key-123456', projectId: '100500', caller: '380441112233' };
const real = { CALLTRACKING_BASE_URL: 'https://api.example.net', CALLTRACKING_AUTH_KEY: 'real-auth-key-xyz', CALLTRACKING_PROJECT_ID: '1', CALLBACK_CALLER: '380441112233' };
const STYLE = /^[A-Z][A-Z0-9_]*: (expected \S.*|required \S.* \(.+\).*)$/;

function errorOf(env: Record<string, string>, simulator: typeof sim | null = sim): string {
  try {
    loadConfig(env, simulator ?? undefined);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

// [area, variable, bad value]: the value is shown back in the error.
const shown: Array<[string, string, string]> = [
  ['service', 'CALLTRACKING_BASE_URL', 'ftp://api.example.net'],
  ['service', 'CALLBACK_DIRECTION', 'sideways'],
  ['service', 'UPSTREAM_TIMEOUT_MS', '5s'],
  ['service', 'CALLTRACKING_TIMEZONE', 'Mars/Base'],
  ['service', 'DEMO', 'maybe'],
  ['http', 'PORT', '70000'],
  ['http', 'PUBLIC_URL', 'calls.example.com'],
  ['http', 'ALLOWED_ORIGINS', 'https://shop.example.com/path'],
  ['log', 'LOG_LEVEL', 'loud'],
  ['phone', 'ALLOWED_COUNTRIES', 'Poland'],
  ['office', 'TIMEZONE', 'Europe/Atlantis'],
  ['held', 'QUEUE_MAX_WAIT_SECONDS', '-1'],
  ['held', 'REDIAL_ATTEMPTS', '6'],
  ['held', 'SCHEDULE_MAX_DAYS', '61'],
  ['held', 'HELD_LEASE_SECONDS', '9'],
  ['consent', 'REQUIRE_CONSENT', 'sure'],
  ['route', 'ROUTE_REPLY', 'xml'],
  ['outcome', 'OUTCOME_POLL_MS', '10'],
  ['limits', 'LIMIT_CLIENT_RATE', 'three'],
  ['limits', 'TURNSTILE_VERIFY_URL', 'ftp://x'],
  ['limits', 'KEEP_ALIVE_TIMEOUT_MS', '1'],
  ['store', 'DATA_RETENTION_DAYS', '3651'],
  ['redis', 'REDIS_PREFIX', 'a{b}'],
];

// Values that are keys, tokens or may carry a password: named, never echoed.
const secret: Array<[string, string, string]> = [
  ['service', 'CALLTRACKING_AUTH_KEY', 'hunter2'],
  ['hash', 'HASH_SECRET', 'hunter2-short'],
  ['owner', 'OWNER_TOKEN', 'hunter2 with spaces 0123456789'],
  ['route', 'ROUTE_WEBHOOK_TOKEN', 'hunter2'],
  ['limits', 'METRICS_TOKEN', 'hunter2'],
  ['limits', 'TURNSTILE_SECRET', 'hunter2'],
  ['redis', 'REDIS_URL', 'http://user:hunter2@redis.example'],
  ['webhooks', 'LEAD_WEBHOOK_URL', 'https://user:hunter2@crm.example/'],
  ['webhooks', 'LEAD_WEBHOOK_SECRET', 'whsec_hunter2'],
];

describe('one error style across the areas', () => {
  it.each(shown)('%s: a bad %s is named, with what is expected and the value given', (_area, name, value) => {
    const message = errorOf({ [name]: value });
    expect(message).toMatch(STYLE);
    expect(message.startsWith(`${name}: expected `)).toBe(true);
    expect(message).toContain(`got ${JSON.stringify(value)}`);
  });

  it.each(secret)('%s: a bad %s is named with what is expected, its value never shown', (_area, name, value) => {
    const message = errorOf({ [name]: value });
    expect(message).toMatch(STYLE);
    expect(message.startsWith(`${name}: expected `)).toBe(true);
    expect(message).not.toContain('hunter2');
  });

  it.each([
    ['office', { WORKING_HOURS: 'Mon 9-18' }, 'WORKING_HOURS: expected office hours such as "Mon-Fri 09:00-18:00; Sat 10:00-14:00"; bad time "9"'],
    ['http', { TRUSTED_PROXIES: '10.0.0.0/8, proxy' }, 'TRUSTED_PROXIES: expected IP addresses or CIDRs separated by commas; "proxy" is not an IP address'],
  ])('%s: a value its parser refuses is named, with what is expected and what is wrong', (_area, env, message) => {
    expect(errorOf(env)).toMatch(STYLE);
    expect(errorOf(env).startsWith(message)).toBe(true);
  });

  it.each<[string, Record<string, string>, string, 'no simulator'?]>([
    ['service', { CALLTRACKING_BASE_URL: 'https://api.example.net' }, 'CALLTRACKING_AUTH_KEY'],
    ['service', {}, 'CALLTRACKING_BASE_URL', 'no simulator'],
    ['http', real, 'ALLOWED_ORIGINS'],
    ['owner', { ...real, DEMO: 'true' }, 'OWNER_TOKEN'],
    ['hash', { REDIS_URL: 'redis://127.0.0.1:6379' }, 'HASH_SECRET'],
    ['webhooks', { LEAD_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 1).toString('base64')}` }, 'LEAD_WEBHOOK_URL'],
  ])('%s: a missing setting another one needs is named, with when and what', (_area, env, name, withoutSimulator) => {
    const message = errorOf(env, withoutSimulator ? null : sim);
    expect(message).toMatch(STYLE);
    expect(message.startsWith(`${name}: required `)).toBe(true);
  });

  it('says what is expected when two settings disagree', () => {
    expect(errorOf({ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '15000' })).toBe('HEADERS_TIMEOUT_MS: expected at most REQUEST_TIMEOUT_MS (15000), got "20000"');
    expect(errorOf({ TURNSTILE_REQUIRED: 'surge' })).toMatch(STYLE);
  });

  it('keeps a value with line breaks on one line', () => {
    const message = errorOf({ ALLOWED_ORIGINS: 'https://a.example\nhttps://b.example/x' });
    expect(message).not.toMatch(/[\r\n]/);
    expect(message).toMatch(STYLE);
    expect(errorOf({ WORKING_HOURS: 'Mon 09:00-18:00\nFunday 09:00-18:00' })).not.toMatch(/[\r\n]/);
  });
});
