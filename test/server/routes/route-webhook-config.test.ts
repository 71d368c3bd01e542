// The service-interface settings: routing webhook, owner token, call outcomes, project time zone.
// A bad value stops startup with one line naming the variable.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/src/config/index.ts';
import { configErrorOf as errorOf, testSimulator as sim } from '../../support/config-error.ts';

describe('service-interface settings', () => {
  it('defaults: no webhook, no owner token, JSON reply in `destination`, Kyiv project time', () => {
    const c = loadConfig({}, sim);
    expect(c.route).toEqual({ token: null, fallback: null, destinationField: 'destination', reply: 'json', statusWaitMs: 1000 });
    expect(c.owner.token).toBeNull();
    expect(c.outcome).toEqual({ pollMs: 4000, ringSeconds: 30 });
    expect(c.service.timeZone).toBe('Europe/Kyiv');
    expect(loadConfig({}, { ...sim, timeZone: 'Europe/Warsaw' }).service.timeZone).toBe('Europe/Warsaw');
  });

  it('reads every setting as an operator writes it', () => {
    const c = loadConfig(
      {
        ROUTE_WEBHOOK_TOKEN: 'a'.repeat(32),
        ROUTE_FALLBACK: '+380441119999',
        ROUTE_DESTINATION_FIELD: 'phone',
        ROUTE_REPLY: 'text',
        ROUTE_STATUS_WAIT_MS: '800',
        OWNER_TOKEN: 'owner-token-0123456789abcdef0123456789',
        OUTCOME_POLL_MS: '5000',
        CALL_RING_SECONDS: '45',
        CALLTRACKING_TIMEZONE: 'America/New_York',
      },
      sim,
    );
    expect(c.route).toEqual({ token: 'a'.repeat(32), fallback: '+380441119999', destinationField: 'phone', reply: 'text', statusWaitMs: 800 });
    expect(c.owner.token).toBe('owner-token-0123456789abcdef0123456789');
    expect(c.outcome).toEqual({ pollMs: 5000, ringSeconds: 45 });
    expect(c.service.timeZone).toBe('America/New_York');
  });

  it.each([
    [{ ROUTE_WEBHOOK_TOKEN: 'short' }, /^ROUTE_WEBHOOK_TOKEN: expected a random URL-safe token/],
    [{ ROUTE_WEBHOOK_TOKEN: 'has/slash/in/it/0123456789' }, /^ROUTE_WEBHOOK_TOKEN: /],
    [{ OWNER_TOKEN: 'has space 0123456789abc' }, /^OWNER_TOKEN: expected a random URL-safe token/],
    [{ ROUTE_REPLY: 'xml' }, /^ROUTE_REPLY: /],
    [{ ROUTE_FALLBACK: 'two words' }, /^ROUTE_FALLBACK: expected a phone number/],
    [{ ROUTE_DESTINATION_FIELD: 'a b' }, /^ROUTE_DESTINATION_FIELD: expected the member name/],
    [{ ROUTE_STATUS_WAIT_MS: '5000' }, /^ROUTE_STATUS_WAIT_MS: expected a whole number from 50 to 2500/],
    [{ OUTCOME_POLL_MS: '10' }, /^OUTCOME_POLL_MS: expected a whole number/],
    [{ CALL_RING_SECONDS: '0' }, /^CALL_RING_SECONDS: expected a whole number/],
    [{ CALLTRACKING_TIMEZONE: 'Mars/Base' }, /^CALLTRACKING_TIMEZONE: expected an IANA time zone/],
  ])('%o is refused with its name', (env, message) => {
    expect(errorOf(env as Record<string, string>)).toMatch(message);
  });
});
