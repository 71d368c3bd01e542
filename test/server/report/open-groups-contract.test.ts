// The same open-counting cases against the memory, the SQLite and the Redis report store (a single
// server and a real Cluster): a day's groups are capped, a group the day counts already always
// counts, a group with a recent lead always has room, and a caller may ask before it starts a group.
import { describe, expect, it } from 'vitest';
import { LEAD_GROUP_DAYS, MAX_OPEN_GROUPS_PER_DAY, type ReportGroupValues, type ReportStore } from '../../../server/src/report/report-store.ts';
import { reportStores } from '../../support/report-stores.ts';

const NOW = Date.parse('2026-11-25T10:00:00Z');
const DAY = '2026-11-25';
const now = () => NOW;
const { factories } = reportStores(now);

const group = (source: string): ReportGroupValues => ({ source, medium: 'email', campaign: 'nov', department: '', page: '/pricing' });
const newsletter = group('newsletter');

/** The day's groups filled with junk from a flood, each counted once. */
async function fill(store: ReportStore, day = DAY): Promise<void> {
  for (let i = 0; i < MAX_OPEN_GROUPS_PER_DAY; i += 500) {
    await Promise.all(Array.from({ length: 500 }, (_, j) => store.countOpen(day, group(`junk-${i + j}`), 'add')));
  }
}

async function countsOf(store: ReportStore, day = DAY): Promise<Record<string, number>> {
  const opens = await store.opens(day, day);
  return Object.fromEntries(opens.map((o) => [o.source, o.count]));
}

describe.each(factories)('open groups contract: %s', (_name, make) => {
  it('counts each open under its day and group; a group the day counts already counts however it is asked', async () => {
    const store = make();
    expect(await store.countOpen(DAY, newsletter, 'add')).toBe(true);
    expect(await store.countOpen(DAY, newsletter, 'other')).toBe(true);
    expect(await store.countOpen(DAY, newsletter, 'ask')).toBe(true);
    expect(await store.countOpen('2026-11-26', newsletter, 'add')).toBe(true);
    expect(await store.opens(DAY, '2026-11-26')).toEqual(
      expect.arrayContaining([
        { day: DAY, ...newsletter, count: 3 },
        { day: '2026-11-26', ...newsletter, count: 1 },
      ]),
    );
  });

  it('starts a new group only when told to add one and the day has room; else (other), or, asked, counts nothing', async () => {
    const store = make();
    expect(await store.countOpen('2026-11-24', group('asked'), 'ask')).toBe(false);
    expect(await store.countOpen('2026-11-24', group('refused'), 'other')).toBe(true);
    expect(await countsOf(store, '2026-11-24')).toEqual({ '(other)': 1 });
    await fill(store);
    expect(await store.countOpen(DAY, newsletter, 'add')).toBe(true);
    expect(await store.countOpen(DAY, group('junk-7'), 'other')).toBe(true);
    const counts = await countsOf(store);
    expect(counts.newsletter).toBeUndefined();
    expect(counts['(other)']).toBe(1);
    expect(counts['junk-7']).toBe(2);
    expect(Object.keys(counts)).toHaveLength(MAX_OPEN_GROUPS_PER_DAY + 1);
    // The next day starts with room again.
    expect(await store.countOpen('2026-11-26', newsletter, 'add')).toBe(true);
    expect(await countsOf(store, '2026-11-26')).toEqual({ newsletter: 1 });
  }, 60_000);

  it(`a group with a lead in the last ${LEAD_GROUP_DAYS} days always counts under its own name, whatever the day's junk`, async () => {
    const store = make();
    const lead = (callbackId: string, values: ReportGroupValues, at: number) => store.addLead({ callbackId, at, requestedAs: 'now', ...values });
    await lead('cb-recent', newsletter, NOW - (LEAD_GROUP_DAYS - 1) * 86_400_000);
    await lead('cb-old', group('old'), NOW - (LEAD_GROUP_DAYS + 1) * 86_400_000);
    await lead('cb-other-page', { ...group('partner'), page: '/checkout' }, NOW - 3_600_000);
    await fill(store);
    expect(await store.countOpen(DAY, newsletter, 'ask')).toBe(true);
    expect(await store.countOpen(DAY, newsletter, 'other')).toBe(true);
    expect(await store.countOpen(DAY, group('old'), 'add')).toBe(true);
    // The lead's group is all of its values: the same source on another page is another group.
    expect(await store.countOpen(DAY, group('partner'), 'add')).toBe(true);
    const counts = await countsOf(store);
    expect(counts.newsletter).toBe(2);
    expect(counts.old).toBeUndefined();
    expect(counts.partner).toBeUndefined();
    expect(counts['(other)']).toBe(2);
  }, 60_000);
});
