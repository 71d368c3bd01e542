// `GET /calls/list`: the call log for a period. The service answers at most 6,500 calls per request
// (facts: doc) and refuses longer lists with a 400 (facts: assume), so periods are split: one
// project-local day per request (as Ringostat's own clients do), and a piece that still hits the cap
// (a 400 "too many", or exactly 6,500 rows, which may be a silent cut) is halved until it fits.
// Pieces are whole seconds and never overlap (the service treats both ends as inclusive), so no call
// is counted twice. Requests go one after another: a long export must not flood the service.
import { z } from 'zod';
import { callRecordSchema, isCallField, type CallField, type CallRecord } from './call-fields.ts';
import { type CsvError, parseCsvRecords } from './csv.ts';
import { formatServiceTime } from './datetime.ts';
import { startOfNextLocalDay } from '../schedule/zoned.ts';
import { CallTrackingInvalidResponseError, CallTrackingRejectedError } from './errors.ts';
import { parseJson, throwUnlessOk } from './responses.ts';
import type { RawResponse, Transport } from './transport.ts';

/** Rows per request the service answers at most (facts: doc). */
export const MAX_ROWS_PER_REQUEST = 6_500;

export interface CallsListQuery<F extends CallField> {
  /** Start of the period (inclusive, whole seconds). */
  from: Date;
  /** End of the period (inclusive, whole seconds). */
  to: Date;
  /** Which fields each row carries; rows have exactly these keys. */
  fields: readonly F[];
  /** Wire format; both give the same typed rows. Default json. */
  format?: 'json' | 'csv';
  /** `filters`, e.g. `{ utm_campaign: 'brand' }` (facts: doc/seen). */
  filters?: Partial<Record<CallField, string>>;
  /** `order=calldate asc|desc`; the combined result keeps this order. Default asc. */
  order?: 'asc' | 'desc';
}

export interface CallsListOptions {
  /** The project's IANA zone: `from`/`to` are sent, and offset-less dates read, in it. */
  timeZone: string;
  /** Stops after this many requests for one call (a runaway split is a bug, not a plan). */
  maxRequests?: number;
}

/** The refusal that means "the period holds too many calls" (assume: 400 whose text says so). */
export function isTooManyRows(err: unknown): boolean {
  return err instanceof CallTrackingRejectedError && err.httpStatus === 400 && /too many|too much|6[\s,.]?500|limit|exceed|shorter period/i.test(err.serviceMessage);
}

const FilterValue = z.string().regex(/^[^,;=]*$/, 'filter values cannot contain , ; or =');

function buildQuery<F extends CallField>(q: CallsListQuery<F>, from: Date, to: Date, timeZone: string): Record<string, string | undefined> {
  const filters = Object.entries(q.filters ?? {}).map(([k, v]) => {
    if (!isCallField(k)) throw new TypeError(`calls/list: unknown filter field ${k}`);
    return `${k}=${FilterValue.parse(v)}`;
  });
  return {
    export_type: q.format ?? 'json',
    from: formatServiceTime(from, timeZone),
    to: formatServiceTime(to, timeZone),
    fields: q.fields.join(','),
    ...(filters.length > 0 && { filters: filters.join(',') }),
    ...(q.order && { order: `calldate ${q.order}` }),
  };
}

function readRows<F extends CallField>(raw: RawResponse, q: CallsListQuery<F>, timeZone: string): CallRecord<F>[] {
  throwUnlessOk(raw);
  let rows: unknown;
  if ((q.format ?? 'json') === 'csv') {
    if (/^\s*[[{<]/.test(raw.text)) throw new CallTrackingInvalidResponseError('calls/list: asked for csv, got something else');
    try {
      rows = parseCsvRecords(raw.text);
    } catch (err) {
      throw new CallTrackingInvalidResponseError(`calls/list: ${(err as CsvError).message}`);
    }
  } else {
    rows = parseJson(raw);
  }
  const parsed = z.array(callRecordSchema(q.fields, timeZone)).safeParse(rows);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CallTrackingInvalidResponseError(`calls/list: unexpected shape at ${issue?.path.join('.') || 'top'} (${issue?.message ?? 'invalid'})`);
  }
  return parsed.data;
}

const SECOND = 1000;
const wholeSeconds = (d: Date) => new Date(Math.floor(d.getTime() / SECOND) * SECOND);

/** Project-local days covering [from, to], as inclusive whole-second pieces. */
export function dayPieces(from: Date, to: Date, timeZone: string): Array<[Date, Date]> {
  const pieces: Array<[Date, Date]> = [];
  let start = wholeSeconds(from);
  const end = wholeSeconds(to);
  while (start.getTime() <= end.getTime()) {
    const next = startOfNextLocalDay(start, timeZone);
    const pieceEnd = new Date(Math.min(next.getTime() - SECOND, end.getTime()));
    pieces.push([start, pieceEnd]);
    start = new Date(pieceEnd.getTime() + SECOND);
  }
  return pieces;
}

export async function listCalls<F extends CallField>(transport: Transport, q: CallsListQuery<F>, options: CallsListOptions): Promise<CallRecord<F>[]> {
  if (q.fields.length === 0) throw new TypeError('calls/list: ask for at least one field');
  for (const f of q.fields) if (!isCallField(f)) throw new TypeError(`calls/list: unknown field ${String(f)}`);
  if (!(q.from.getTime() <= q.to.getTime())) throw new TypeError('calls/list: from must not be later than to');
  const maxRequests = options.maxRequests ?? 2_000;
  let requests = 0;

  async function once(from: Date, to: Date): Promise<CallRecord<F>[]> {
    if (++requests > maxRequests) throw new CallTrackingInvalidResponseError(`calls/list: more than ${maxRequests} requests for one period; giving up`);
    const raw = await transport.send({ method: 'GET', path: '/calls/list', query: buildQuery(q, from, to, options.timeZone) });
    return readRows(raw, q, options.timeZone);
  }

  async function piece(from: Date, to: Date): Promise<CallRecord<F>[]> {
    const unsplittable = to.getTime() - from.getTime() < SECOND;
    try {
      const rows = await once(from, to);
      // One second with 6,500 calls: nothing to split, the rows are all there is.
      if (rows.length < MAX_ROWS_PER_REQUEST || unsplittable) return rows;
    } catch (err) {
      if (!isTooManyRows(err) || unsplittable) throw err;
    }
    // At the cap: halve (whole seconds, no overlap) and ask again.
    const mid = wholeSeconds(new Date(from.getTime() + (to.getTime() - from.getTime()) / 2));
    const first = await piece(from, mid);
    const second = await piece(new Date(mid.getTime() + SECOND), to);
    return q.order === 'desc' ? [...second, ...first] : [...first, ...second];
  }

  const pieces = dayPieces(q.from, q.to, options.timeZone);
  if (q.order === 'desc') pieces.reverse();
  const out: CallRecord<F>[] = [];
  for (const [from, to] of pieces) for (const row of await piece(from, to)) out.push(row);
  return out;
}
