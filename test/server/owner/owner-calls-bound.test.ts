// The owner's call log (GET /owner/api/calls) when a week of leads brought thousands of utm
// sources (a utm source is whatever a visitor's link said): the answer names the
// OWNER_CALL_SOURCES sources with the most calls and sums the rest as "(other)", every day's total
// kept. The service is a stand-in here (its client), as in owner-view.test.ts.
import { describe, expect, it } from 'vitest';
import type { CallsListQuery } from '../../../server/src/calltracking/calls-list.ts';
import { createLogger } from '../../../server/src/log/index.ts';
import { createAcceptedCalls } from '../../../server/src/callback/progress/accepted-calls.ts';
import { createOwnerCalls, OWNER_CALL_SOURCES } from '../../../server/src/owner/owner-calls.ts';

const tz = 'Europe/Kyiv';
const now = new Date('2026-03-10T12:00:00Z');

describe('owner call log, bounded', () => {
  it('a week of calls each with a utm source of its own: 20 sources named, the rest one "(other)", every count kept', async () => {
    // 3,000 calls a day from a flood of leads, each its own source, and 40 a day from google.
    const client = {
      async callsList(query: CallsListQuery<never>) {
        const day = query.from.toISOString().slice(0, 10);
        return Array.from({ length: 3_040 }, (_, i) => ({
          calldate: new Date(query.from.getTime() + 1000 * i),
          caller: '380441112233',
          dst: `38050${String(i).padStart(7, '0')}`,
          disposition: 'ANSWERED',
          billsec: 10,
          duration: 20,
          call_type: 'callback',
          utm_source: i < 40 ? 'google' : `flood-${day}-${i}`,
          utm_medium: '',
          client_id: '',
          uniqueid: `${day}-${i}`,
        })) as never[];
      },
    };
    const calls = createOwnerCalls({ client, accepted: createAcceptedCalls(), timeZone: tz, log: createLogger({ level: 'silent' }), now: () => now, refreshMs: 0 });
    const answer = await calls.get();
    expect(answer.sources).toHaveLength(OWNER_CALL_SOURCES + 1);
    expect(answer.sources[0]).toBe('google');
    expect(answer.sources.at(-1)).toBe('(other)');
    for (const d of answer.days) {
      expect(Object.keys(d.bySource).length).toBeLessThanOrEqual(OWNER_CALL_SOURCES + 1);
      expect(Object.values(d.bySource).reduce((a, b) => a + b, 0)).toBe(d.total);
      expect(d.total).toBe(3_040);
      expect(d.bySource.google).toBe(40);
    }
    expect(answer.latest).toHaveLength(50);
    expect(Buffer.byteLength(JSON.stringify(answer))).toBeLessThan(32 * 1024);
  });
});
