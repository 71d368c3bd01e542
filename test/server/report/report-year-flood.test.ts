// A year of a beacon flood in the embedded store (366 days of ~5,000 open groups, each its own utm
// source, beside a long tail of 110 steady sources and five real ones with leads: 1.8 M rows, built
// by SQL rather than by a year of requests), then the owner asks for the 366-day report and its
// CSV over HTTP. Before, the relay read every row into memory and answered 252 MB of JSON (1.8 M
// groups) while /healthz waited. Now the answer is REPORT_GROUPS groups and
// "(other)" with exact totals, and the CSV is streamed and as small. (How fast, and how long
// /healthz waits meanwhile, is `npm run bench report`'s table, not a test.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { NONE, OTHER, REPORT_GROUPS, type LeadReport } from '../../../server/src/report/lead-report.ts';
import { byLeadsThenOpens } from '../../../server/src/report/tally.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { expected, type FloodSpec, floodSqlite } from '../../support/report-flood.ts';
import { systemPerTest } from '../../support/system.ts';

const TZ = 'Europe/Kyiv';
const SPEC: FloodSpec = { from: '2025-11-25', days: 366, floodGroups: 4_885, steadyGroups: 110, leadsPerDay: 30, timeZone: TZ };
const start = systemPerTest({ CALLTRACKING_TIMEZONE: TZ, REPORT_TALK_SECONDS: '10' });
// The year's file is 80 MB: gone after the file's tests, once the relay on it has closed.
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('answers the 366-day report of a flooded year in REPORT_GROUPS groups and "(other)" with exact totals, and a streamed CSV as small', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'dialback-flood-'));
  dirs.push(dataDir);
  const db = openDatabase({ dataDir });
  floodSqlite(db, SPEC);
  db.close();
  const s = await start({ DATA_DIR: dataDir });
  const query = 'from=2025-11-25&to=2026-11-25&by=source';

  const res = await fetch(`${s.relayUrl}/owner/api/report?${query}`);
  const text = await res.text();
  expect(res.status).toBe(200);
  expect(Buffer.byteLength(text)).toBeLessThan(64 * 1024);
  const report = JSON.parse(text) as LeadReport;
  expect(report.groups).toHaveLength(REPORT_GROUPS + 1);
  expect(report).toMatchObject({ truncated: true, from: '2025-11-25', to: '2026-11-25' });
  expect(report.groups.at(-1)!.key).toBe(OTHER);
  expect(report.days).toHaveLength(366);
  const truth = expected(SPEC, 10);
  expect(report.totals).toMatchObject(truth.totals);
  const order = [...truth.bySource].map(([source, c]) => ({ key: source || NONE, ...c })).sort(byLeadsThenOpens);
  expect(report.groups.slice(0, -1)).toMatchObject(order.slice(0, REPORT_GROUPS));

  const csv = await fetch(`${s.relayUrl}/owner/api/report.csv?${query}`);
  expect(csv.status).toBe(200);
  // Streamed: no length known up front.
  expect(csv.headers.get('content-length')).toBeNull();
  const lines = (await csv.text()).trimEnd().split('\r\n');
  expect(lines).toHaveLength(1 + REPORT_GROUPS + 1 + 1);
  expect(lines.at(-2)).toMatch(/^"\(other\)",/);
  expect(lines.at(-1)).toBe(
    `"(total)",${truth.totals.opened},${truth.totals.requested},${truth.totals.placed},${truth.totals.answered},${truth.totals.talked},${truth.totals.missed},${truth.totals.failed},${truth.totals.noConsent},${report.totals.medianAnswerSeconds}`,
  );
  expect(lines.join('\r\n').length).toBeLessThan(16 * 1024);

  // The period's leads: the store reads the newest 1,000 (and one more), never the year's 10,980.
  const leads = (await (await fetch(`${s.relayUrl}/owner/api/leads?from=2025-11-25&to=2026-11-25`)).json()) as { leads: Array<{ requestedAt: string }>; truncated: boolean };
  expect(leads.leads).toHaveLength(1_000);
  expect(leads.truncated).toBe(true);
  expect(leads.leads[0]!.requestedAt > leads.leads.at(-1)!.requestedAt).toBe(true);
}, 120_000);
