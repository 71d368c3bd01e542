// A service that cuts the export at 6,500 rows without saying so (the cap is documented, the error
// is not): the client must notice a full page and split further, and still count every call once.
// A small real HTTP server stands in for that service variant.
import { createServer } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCallTrackingClient } from '../../../server/src/calltracking/client.ts';
import { MAX_ROWS_PER_REQUEST } from '../../../server/src/calltracking/calls-list.ts';
import { formatServiceTime } from '../../../server/src/calltracking/datetime.ts';
import { listen, type Listening } from '../../support/listen.ts';

const TZ = 'Europe/Kyiv';
const dayStart = new Date('2024-06-01T21:00:00Z'); // 2024-06-02 00:00:00 in Kyiv
// One call every 10 s for a whole day: 8,640 calls, more than one page.
const calls = Array.from({ length: 8640 }, (_, i) => new Date(dayStart.getTime() + i * 10_000));
const periods: Array<[string, string]> = [];
let server: Listening;

function parseLocal(text: string): number {
  // Kyiv is UTC+3 on this day.
  return Date.parse(text.replace(' ', 'T') + '+03:00');
}

beforeAll(async () => {
  server = await listen(
    createServer((req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams;
      periods.push([q.get('from')!, q.get('to')!]);
      const from = parseLocal(q.get('from')!);
      const to = parseLocal(q.get('to')!);
      const rows = calls
        .filter((d) => d.getTime() >= from && d.getTime() <= to)
        .slice(0, MAX_ROWS_PER_REQUEST)
        .map((d) => ({ calldate: formatServiceTime(d, TZ).replace(' ', 'T') + '+0300', uniqueid: String(d.getTime() / 1000) }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rows));
    }),
  );
});
afterAll(() => server.close());

it('splits a full page further and returns every call exactly once', async () => {
  const client = createCallTrackingClient({ baseUrl: server.url, authKey: 'test-key-123', timeoutMs: 5000, timeZone: TZ });
  try {
    const rows = await client.callsList({ from: dayStart, to: new Date(dayStart.getTime() + 86_399_000), fields: ['calldate', 'uniqueid'] });
    expect(rows).toHaveLength(calls.length);
    expect(new Set(rows.map((r) => r.uniqueid)).size).toBe(calls.length);
    expect(rows.map((r) => r.calldate.getTime())).toEqual(calls.map((d) => d.getTime()));
    expect(periods[0]).toEqual(['2024-06-02 00:00:00', '2024-06-02 23:59:59']);
    expect(periods.length).toBe(3); // the full day, then its two halves
  } finally {
    await client.close();
  }
});
