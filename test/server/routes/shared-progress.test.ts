// Several relays share one store (Redis in production; here one embedded store): a visitor's
// progress polls may reach a relay that did not place the call, and that relay must report the
// same steps, not just "accepted" until the call is over.
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/src/log/index.ts';
import { createRelay, type Relay } from '../../../server/src/relay.ts';
import { listen, type Listening } from '../../support/listen.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { startSystem, type System } from '../../support/system.ts';

let system: System | undefined;
let other: { relay: Relay; listening: Listening } | undefined;
afterEach(async () => {
  await other?.listening.close();
  await other?.relay.close();
  await system?.close();
  system = other = undefined;
});

describe('progress on a relay that did not place the call', () => {
  it('follows its steps to the end from the shared store', async () => {
    const s = (system = await startSystem({ ALLOWED_ORIGINS: ORIGIN, OUTCOME_POLL_MS: '250' }, { simulator: { timing: { agentAnswerMs: 400, visitorRingMs: 400, talkMs: 400 } } }));
    const relay = createRelay({ config: s.config, log: createLogger({ level: 'silent' }), stores: s.relay.app.stores });
    other = { relay, listening: await listen(relay.server) };
    const placed = await postCallback(s, { phone: '050 123 45 67', consent: true });
    const { requestId } = placed.json as { requestId: string };
    const seen: string[] = [];
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      const res = await fetch(`${other.listening.url}/api/callback/${requestId}`, { headers: { origin: ORIGIN } });
      expect(res.status).toBe(200);
      const { outcome } = (await res.json()) as { outcome: string };
      if (seen.at(-1) !== outcome) seen.push(outcome);
      if (outcome === 'completed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // The other relay saw the call through: its steps, then its end from the call log.
    expect(seen.at(-1), seen.join(' → ')).toBe('completed');
    expect(
      seen.some((step) => ['agent_ringing', 'ringing_you', 'connected'].includes(step)),
      seen.join(' → '),
    ).toBe(true);
    // And it places nothing itself.
    expect(s.sim.calls).toHaveLength(1);
  });
});
