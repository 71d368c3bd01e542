// What the backlog alerts read: how long the earliest held call has been due, and the lead
// webhook's attempts by outcome. Time is the test's clock; the runner and the delivery run only when asked.
import { describe, expect, it } from 'vitest';
import { heldJobFor, heldRelayPerTest, manualTimers, SECRET, until } from '../../support/held-calls.ts';
import { deadUrl } from '../../support/listen.ts';
import { postCallback } from '../../support/post-callback.ts';
import type { System } from '../../support/system.ts';

// Monday 2026-11-23 10:00 in Kyiv: the office (Mon-Fri 09-18) is open.
const MONDAY_10 = new Date('2026-11-23T08:00:00Z');
const { clock, start } = heldRelayPerTest(MONDAY_10);
const OFFICE = { WORKING_HOURS: 'Mon-Fri 09:00-18:00', TIMEZONE: 'Europe/Kyiv' };

/** A sample's value by its name and labels as written; undefined while it has none. */
async function metric(s: System, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${s.relayUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('backlog gauges', () => {
  it('say how long the earliest held call has been due, and 0 when none is late', async () => {
    const s = await start(OFFICE, { webhook: false, runner: { timers: manualTimers(clock) } });
    expect(await metric(s, 'dialback_held_call_overdue_seconds')).toBe(0);
    await s.relay.app.stores.jobs.add(heldJobFor('+380501112203', 'scheduled', clock.ms + 60_000), clock.ms);
    expect(await metric(s, 'dialback_held_call_overdue_seconds')).toBe(0); // booked, not yet due
    clock.advance(11 * 60_000);
    expect(await metric(s, 'dialback_held_call_overdue_seconds')).toBe(600);
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(await metric(s, 'dialback_held_call_overdue_seconds')).toBe(0); // placed: now followed, due later
  });

  it('count lead-webhook attempts by outcome, so a CRM that hears of no lead shows', async () => {
    const s = await start({ ...OFFICE, LEAD_WEBHOOK_URL: await deadUrl(), LEAD_WEBHOOK_SECRET: SECRET }, { webhook: false, runner: { timers: manualTimers(clock) } });
    // A booking, as a visitor makes it: the lifecycle tells the CRM, which is down.
    const booked = await postCallback(s, { phone: '+380501112204', scheduledFor: '2026-11-23T11:00:00+02:00' });
    expect(booked.status).toBe(202);
    await until(async () => (await metric(s, 'dialback_webhook_deliveries_total{outcome="retry"}')) === 1, 'the first failed attempt');
    clock.advance(25 * 3_600_000); // past the retry period
    await s.relay.app.delivery!.runOnce();
    expect(await metric(s, 'dialback_webhook_deliveries_total{outcome="gave_up"}')).toBe(1);
  });
});
