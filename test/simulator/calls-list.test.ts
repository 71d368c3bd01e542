// Contract of GET /calls/list as the spec and the facts describe it.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { EXPORT_FIELDS, MAX_EXPORT_ROWS } from '../../server/simulator/index.ts';
import { callback, get, jsonOf, start, waitFor, type RunningSim } from '../support/simulator.ts';

// 2019-06-02 09:30:47 in Kyiv (summer, +0300): the facts' own example instant.
const NOW = new Date('2019-06-02T06:30:47Z');
const FACTS_FIELDS = [
  'calldate',
  'caller',
  'dst',
  'disposition',
  'billsec',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'recording',
  'pool_name',
  'duration',
  'call_type',
  'waittime',
  'connected_with',
  'uniqueid',
  'client_id',
  'remote_ip',
  'landing',
  'call_card',
  'has_recording',
  'scheme_name',
  'refferrer',
];

let sim: RunningSim;
const list = (query: string, key?: string | null) => get(sim, `/calls/list${query}`, key);
const rows = async (query: string) => (await jsonOf(await list(query))) as Array<Record<string, unknown>>;

beforeEach(async () => {
  if (!sim) sim = await start({ now: () => NOW });
  sim.reset();
});
afterAll(() => sim?.close());

async function finishedCallback(overrides: Record<string, unknown> = {}) {
  expect((await callback(sim, overrides)).status).toBe(200);
  await waitFor('the callback to end', () => sim.calls.every((c) => c.state === 'ended'));
}

describe('authentication', () => {
  it('refuses a missing Auth-key with 403', async () => {
    expect((await list('', null)).status).toBe(403);
  });
  it('refuses a wrong Auth-key with 403', async () => {
    expect((await list('', 'not-the-key')).status).toBe(403);
  });
});

describe('JSON export', () => {
  it('answers a bare empty array for an empty period', async () => {
    const res = await list('?export_type=json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.text()).toBe('[]');
  });

  it('uses json when export_type is absent', async () => {
    await finishedCallback();
    const res = await list('');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await jsonOf(res)).toHaveLength(1);
  });

  it('returns bare flat objects whose keys are exactly the requested fields, in the requested order', async () => {
    await finishedCallback();
    const [row, ...rest] = await rows('?fields=disposition,calldate,utm_source,caller');
    expect(rest).toHaveLength(0);
    expect(Object.keys(row ?? {})).toEqual(['disposition', 'calldate', 'utm_source', 'caller']);
  });

  it('answers the spec-listed fields when fields is absent', async () => {
    await finishedCallback();
    const [row] = await rows('');
    expect(Object.keys(row ?? {})).toEqual(['calldate', 'caller', 'dst', 'disposition', 'billsec', 'utm_source', 'utm_medium', 'recording']);
  });

  it('supports every field the facts list, plus user_agent', async () => {
    await finishedCallback();
    const fields = [...FACTS_FIELDS, 'user_agent', 'duration_ms'];
    const [row] = await rows(`?fields=${fields.join(',')}`);
    expect(Object.keys(row ?? {})).toEqual(fields);
    expect(EXPORT_FIELDS).toEqual(expect.arrayContaining(fields));
  });

  it('formats calldate as ISO 8601 with an offset without a colon, in project time', async () => {
    await finishedCallback();
    const [row] = await rows('?fields=calldate');
    expect(row?.calldate).toBe('2019-06-02T09:30:47+0300');
  });

  it('uses the winter offset for winter calls', async () => {
    sim.seedCalls(1, { from: new Date('2019-01-15T10:00:00Z'), to: new Date('2019-01-15T10:00:00Z') });
    const [row] = await rows('?from=2019-01-15%2000:00:00&to=2019-01-15%2023:59:59&fields=calldate');
    expect(row?.calldate).toBe('2019-01-15T12:00:00+0200');
  });

  it('keeps the number quirks: billsec and duration integers; waittime, duration_ms, has_recording strings', async () => {
    await finishedCallback();
    const [row] = await rows('?fields=billsec,duration,waittime,duration_ms,has_recording');
    expect(typeof row?.billsec).toBe('number');
    expect(typeof row?.duration).toBe('number');
    expect(row?.waittime).toMatch(/^\d+$/);
    expect(row?.duration_ms).toMatch(/^\d+$/);
    expect(row?.has_recording).toMatch(/^[01]$/);
  });

  it('carries the callback attribution into the row', async () => {
    await finishedCallback();
    const [row] = await rows('?fields=caller,dst,call_type,disposition,utm_source,utm_medium,utm_campaign,utm_term,utm_content,client_id,remote_ip,user_agent');
    expect(row).toEqual({
      caller: '380501234567',
      dst: sim.officeLine,
      call_type: 'callback',
      disposition: 'ANSWERED',
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'brand',
      utm_term: 'call me',
      utm_content: 'ad-1',
      client_id: '576047607.1537442595',
      remote_ip: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (Test)',
    });
  });

  it('fills utm placeholders when the callback carried none', async () => {
    await finishedCallback({ utmSource: undefined, utmMedium: undefined, utmCampaign: undefined, utmTerm: undefined, utmContent: undefined });
    const [row] = await rows('?fields=utm_source,utm_medium,utm_campaign,utm_content,utm_term');
    expect(row).toEqual({ utm_source: '(direct)', utm_medium: '(none)', utm_campaign: '(direct)', utm_content: '(not set)', utm_term: '(none)' });
  });
});

describe('errors', () => {
  it('answers 400 containing "incorrect field" for an unknown field', async () => {
    const res = await list('?fields=calldate,nonsense');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('incorrect field');
  });
  it('answers 400 containing "incorrect field" for a filter on an unknown field', async () => {
    const res = await list('?filters=nonsense%3Dx');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('incorrect field');
  });
  it.each([
    ['a malformed from', '?from=2019-06-02'],
    ['an impossible to', '?to=2019-02-30%2010:00:00'],
    ['from after to', '?from=2019-06-03%2000:00:00&to=2019-06-02%2000:00:00'],
    ['an unknown export_type', '?export_type=xml'],
    ['an unknown order', '?order=caller%20asc'],
    ['a bad merge', '?merge=7'],
    ['an unknown parameter', '?limit=10'],
  ])('answers 400 for %s', async (_what, query) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect((await jsonOf(res)) as object).toHaveProperty('error.message');
  });
  it('answers 405 to POST', async () => {
    const res = await fetch(`${sim.url}/calls/list`, { method: 'POST', headers: { 'Auth-key': sim.authKey } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });
});

describe('period, cap, filters and order', () => {
  const day1 = '?from=2019-05-01%2000:00:00&to=2019-05-01%2023:59:59&fields=uniqueid';
  const day2 = '?from=2019-05-02%2000:00:00&to=2019-05-02%2023:59:59&fields=uniqueid';
  const both = '?from=2019-05-01%2000:00:00&to=2019-05-02%2023:59:59&fields=uniqueid';
  // Kyiv local 2019-05-01 00:00:00 .. 2019-05-02 23:59:59 (+0300).
  const twoDays = { from: new Date('2019-04-30T21:00:00Z'), to: new Date('2019-05-02T20:59:59Z') };

  it(`refuses more than ${MAX_EXPORT_ROWS} rows with 400, and one-day requests get them all`, async () => {
    sim.seedCalls(7_000, twoDays);
    const whole = await list(both);
    expect(whole.status).toBe(400);
    const first = await rows(day1);
    const second = await rows(day2);
    expect(first.length).toBeLessThanOrEqual(MAX_EXPORT_ROWS);
    expect(second.length).toBeLessThanOrEqual(MAX_EXPORT_ROWS);
    expect(first.length + second.length).toBe(7_000);
    expect(new Set([...first, ...second].map((r) => r.uniqueid)).size).toBe(7_000);
  });

  it(`answers exactly ${MAX_EXPORT_ROWS} rows`, async () => {
    sim.seedCalls(MAX_EXPORT_ROWS, twoDays);
    expect(await rows(both)).toHaveLength(MAX_EXPORT_ROWS);
  });

  it('defaults to the last 24 hours before now', async () => {
    // One row an hour for 48 hours, the last exactly at NOW.
    sim.seedCalls(49, { from: new Date(NOW.getTime() - 48 * 3600_000), to: NOW });
    expect(await rows('?fields=uniqueid')).toHaveLength(25);
  });

  it("accepts the space in from/to encoded as '+' (as URLSearchParams writes it)", async () => {
    sim.seedCalls(3, twoDays);
    const query = new URLSearchParams({ from: '2019-05-01 00:00:00', to: '2019-05-02 23:59:59', fields: 'uniqueid' });
    expect(query.toString()).toContain('+00%3A00%3A00');
    expect(await rows(`?${query}`)).toHaveLength(3);
  });

  it('defaults from to 24 hours before an explicit to', async () => {
    sim.seedCalls(49, { from: new Date(NOW.getTime() - 48 * 3600_000), to: NOW });
    // to = NOW - 24 h (Kyiv 2019-06-01 09:30:47): rows at -48 h .. -24 h.
    expect(await rows('?to=2019-06-01%2009:30:47&fields=uniqueid')).toHaveLength(25);
  });

  it('filters by a field value', async () => {
    sim.seedCalls(40, { ...twoDays, overrides: { utmCampaign: 'generic' } });
    sim.seedCalls(3, { ...twoDays, overrides: { utmCampaign: 'brand' } });
    const brand = await rows(`${both.replace('fields=uniqueid', 'fields=utm_campaign')}&filters=utm_campaign%3Dbrand`);
    expect(brand).toHaveLength(3);
    expect(brand.every((r) => r.utm_campaign === 'brand')).toBe(true);
  });

  it('orders by calldate asc and desc', async () => {
    sim.seedCalls(5, twoDays);
    const ordered = (order: string) => rows(`${both.replace('fields=uniqueid', 'fields=uniqueid,calldate')}&order=calldate%20${order}`);
    const asc = await ordered('asc');
    const desc = await ordered('desc');
    expect(asc).toHaveLength(5);
    expect(desc.map((r) => r.uniqueid)).toEqual(asc.map((r) => r.uniqueid).reverse());
    // Each direction checked on its own dates, so swapped directions cannot pass.
    const ascDates = asc.map((r) => String(r.calldate));
    expect(new Set(ascDates).size).toBe(5);
    expect(ascDates).toEqual([...ascDates].sort());
    const descDates = desc.map((r) => String(r.calldate));
    expect(descDates).toEqual([...descDates].sort().reverse());
    const dates = (await rows(both.replace('fields=uniqueid', 'fields=calldate'))).map((r) => String(r.calldate));
    expect(dates).toEqual([...dates].sort());
  });
});

describe('CSV export', () => {
  it('is semicolon-separated with a header row in the requested field order', async () => {
    await finishedCallback();
    const res = await list('?export_type=csv&fields=caller,disposition,billsec,utm_source');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await res.text()).trimEnd().split(/\r?\n/);
    expect(lines).toEqual(['caller;disposition;billsec;utm_source', '380501234567;ANSWERED;0;google']);
  });

  it('answers only the header row for an empty period', async () => {
    const text = await (await list('?export_type=csv&fields=caller,dst')).text();
    expect(text.trimEnd()).toBe('caller;dst');
  });

  it('quotes values that contain the separator or quotes', async () => {
    sim.seedCalls(1, { from: NOW, to: NOW, overrides: { utmCampaign: 'a;b "c"' } });
    const text = await (await list('?export_type=csv&fields=utm_campaign')).text();
    expect(text.trimEnd().split(/\r?\n/)[1]).toBe('"a;b ""c"""');
  });
});
