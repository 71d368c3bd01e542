// GET /calls/list: call-log export.
// Parameters (facts: doc/seen): export_type json|csv, from/to `YYYY-MM-DD HH:MM:SS` in project time
// (from defaults to to-24h, to to now), fields (comma list; output keys are exactly these, in this
// order), filters (`field=value`, several joined by ',' or ';': all must match), order
// (`calldate asc|desc`), merge (0|1|2, accepted and ignored: the simulator has no merged calls).
// More than 6,500 matching rows answer 400: the client must split the period.
import { DEFAULT_EXPORT_FIELDS, DEFAULT_ORDER, MAX_EXPORT_ROWS } from '../assumptions.ts';
import { exportRow, isExportField } from '../call-log.ts';
import type { SimContext, SimRequest } from '../context.ts';
import { json, methodNotAllowed, restError, text, type Reply } from '../http-kit.ts';
import type { SimCall } from '../types.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const KNOWN_PARAMS = new Set(['export_type', 'from', 'to', 'fields', 'filters', 'order', 'merge']);

export function callsList(ctx: SimContext, request: SimRequest): Reply {
  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  const q = request.url.searchParams;

  const unknown = [...q.keys()].find((k) => !KNOWN_PARAMS.has(k));
  if (unknown) return restError(400, `unknown parameter ${unknown}`);

  const exportType = q.get('export_type') ?? 'json';
  if (exportType !== 'json' && exportType !== 'csv') return restError(400, 'export_type must be json or csv');

  const toText = q.get('to');
  const to = toText === null ? ctx.now() : ctx.time.parseLocal(toText);
  if (!to) return restError(400, 'to must be YYYY-MM-DD HH:MM:SS');
  const fromText = q.get('from');
  const from = fromText === null ? new Date(to.getTime() - DAY_MS) : ctx.time.parseLocal(fromText);
  if (!from) return restError(400, 'from must be YYYY-MM-DD HH:MM:SS');
  if (from.getTime() > to.getTime()) return restError(400, 'from must not be later than to');

  const fieldsText = q.get('fields');
  const fields = fieldsText === null ? [...DEFAULT_EXPORT_FIELDS] : fieldsText.split(',').map((f) => f.trim());
  const badField = fields.find((f) => !isExportField(f));
  if (badField !== undefined) return restError(400, `incorrect field: ${JSON.stringify(badField)}`);
  if (new Set(fields).size !== fields.length) return restError(400, 'incorrect field list: a field is repeated');

  const filters = parseFilters(q.get('filters'));
  if (typeof filters === 'string') return restError(400, filters);

  const order = parseOrder(q.get('order'));
  if (!order) return restError(400, 'order must be "calldate asc" or "calldate desc"');

  const merge = q.get('merge');
  if (merge !== null && !['0', '1', '2'].includes(merge)) return restError(400, 'merge must be 0, 1 or 2');

  // Whole seconds on both ends, inclusive: the service's resolution.
  const fromS = Math.floor(from.getTime() / 1000);
  const toS = Math.floor(to.getTime() / 1000);
  const rows = ctx.calls.filter((c) => {
    const s = Math.floor(c.calldate.getTime() / 1000);
    return s >= fromS && s <= toS && filters.every((f) => String(exportRow(c, [f.field], ctx.time)[f.field]) === f.value);
  });
  if (rows.length > MAX_EXPORT_ROWS) {
    return restError(400, `too many calls in the period (${rows.length} > ${MAX_EXPORT_ROWS}); request a shorter period`);
  }
  rows.sort(byCalldate(order));
  const exported = rows.map((c) => exportRow(c, fields, ctx.time));

  return exportType === 'json' ? json(200, exported) : text(200, toCsv(fields, exported), 'text/csv; charset=utf-8');
}

interface Filter {
  field: string;
  value: string;
}

function parseFilters(raw: string | null): Filter[] | string {
  if (raw === null || raw.trim() === '') return [];
  const out: Filter[] = [];
  for (const part of raw.split(/[;,]/)) {
    const eq = part.indexOf('=');
    if (eq <= 0) return `filters must be field=value (got ${JSON.stringify(part.slice(0, 60))})`;
    const field = part.slice(0, eq).trim();
    if (!isExportField(field)) return `incorrect field in filters: ${JSON.stringify(field)}`;
    out.push({ field, value: part.slice(eq + 1).trim() });
  }
  return out;
}

function parseOrder(raw: string | null): 'asc' | 'desc' | null {
  if (raw === null) return DEFAULT_ORDER;
  const m = /^\s*calldate(?:\s+(asc|desc))?\s*$/i.exec(raw);
  if (!m) return null;
  return (m[1]?.toLowerCase() as 'asc' | 'desc' | undefined) ?? 'asc';
}

function byCalldate(order: 'asc' | 'desc') {
  const sign = order === 'asc' ? 1 : -1;
  return (a: SimCall, b: SimCall) => sign * (a.calldate.getTime() - b.calldate.getTime());
}

/** Semicolon-separated with a header row (facts: doc); RFC 4180 quoting, CRLF line ends. */
function toCsv(fields: readonly string[], rows: ReadonlyArray<Record<string, string | number>>): string {
  const cell = (v: string | number | undefined) => {
    const s = v === undefined ? '' : String(v);
    return /[;"\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  const lines = [fields.map(cell).join(';'), ...rows.map((r) => fields.map((f) => cell(r[f])).join(';'))];
  return `${lines.join('\r\n')}\r\n`;
}
