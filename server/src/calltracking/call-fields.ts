// The fields `/calls/list` can export, and how each one's value is read. The list is the spec's
// eight plus the ones Ringostat documents (facts, "Call log export"), misspelled `refferrer`
// included. Values are read leniently, because the service is not consistent about types (facts:
// `billsec`/`duration` arrive as integers but `waittime`, `duration_ms`, `has_recording` as strings),
// and because the csv export makes every value a string anyway.
import { z } from 'zod';
import { parseCalldate } from './datetime.ts';

export const CALL_FIELDS = [
  'calldate',
  'caller',
  'dst',
  'disposition',
  'billsec',
  'utm_source',
  'utm_medium',
  'recording',
  'pool_name',
  'duration',
  'call_type',
  'waittime',
  'connected_with',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'uniqueid',
  'client_id',
  'remote_ip',
  'landing',
  'call_card',
  'has_recording',
  'scheme_name',
  'refferrer',
  'duration_ms',
] as const;
export type CallField = (typeof CALL_FIELDS)[number];

export const isCallField = (name: string): name is CallField => (CALL_FIELDS as readonly string[]).includes(name);

/** Documented (ANSWERED, NO ANSWER, REPEATED) and seen values; others pass through as strings. */
export const KNOWN_DISPOSITIONS = [
  'ANSWERED',
  'NO ANSWER',
  'REPEATED',
  'BUSY',
  'FAILED',
  'VOICEMAIL',
  'NO EXTENSION',
  'WRONG EXTENSION',
  'CLIENT NO ANSWER',
  'IN PROGRESS',
] as const;
export type Disposition = (typeof KNOWN_DISPOSITIONS)[number] | (string & {});
export type CallType = 'in' | 'out' | 'callback' | 'transitin' | 'transitout' | (string & {});

/** Text: strings as they are, numbers as their decimal text, null/absent as ''. */
const text = z.union([z.string(), z.number(), z.null(), z.undefined()]).transform((v) => (v === null || v === undefined ? '' : String(v)));

/** Whole numbers given as numbers or numeric strings; '' or null mean 0 (nothing measured). */
const count = z.union([z.number(), z.string(), z.null()]).transform((v, ctx) => {
  if (v === null) return 0;
  const s = typeof v === 'number' ? v : v.trim() === '' ? 0 : Number(v.trim());
  if (typeof s === 'number' && Number.isFinite(s)) return s;
  ctx.addIssue({ code: 'custom', message: `expected a number, got ${JSON.stringify(v).slice(0, 40)}` });
  return z.NEVER;
});

const flag = z.union([z.boolean(), z.number(), z.string(), z.null()]).transform((v, ctx) => {
  if (v === null || v === '') return false;
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  if (['1', 'true', 'yes'].includes(s)) return true;
  if (['0', 'false', 'no'].includes(s)) return false;
  ctx.addIssue({ code: 'custom', message: `expected a flag, got ${JSON.stringify(v).slice(0, 40)}` });
  return z.NEVER;
});

function calldate(timeZone: string) {
  return z.string().transform((v, ctx) => {
    const d = parseCalldate(v, timeZone);
    if (d) return d;
    ctx.addIssue({ code: 'custom', message: `calldate is not a date: ${JSON.stringify(v).slice(0, 40)}` });
    return z.NEVER;
  });
}

/** The value type of each field after reading. */
export interface CallFieldTypes {
  calldate: Date;
  caller: string;
  dst: string;
  disposition: Disposition;
  billsec: number;
  utm_source: string;
  utm_medium: string;
  recording: string;
  pool_name: string;
  duration: number;
  call_type: CallType;
  waittime: number;
  connected_with: string;
  utm_campaign: string;
  utm_content: string;
  utm_term: string;
  uniqueid: string;
  client_id: string;
  remote_ip: string;
  landing: string;
  call_card: string;
  has_recording: boolean;
  scheme_name: string;
  refferrer: string;
  duration_ms: number;
}

/** One exported row with exactly the requested fields. */
export type CallRecord<F extends CallField = CallField> = { [K in F]: CallFieldTypes[K] };

const NUMERIC = new Set<CallField>(['billsec', 'duration', 'waittime', 'duration_ms']);

function fieldSchema(field: CallField, timeZone: string): z.ZodType {
  if (field === 'calldate') return calldate(timeZone);
  if (field === 'has_recording') return flag;
  if (NUMERIC.has(field)) return count;
  return text;
}

/**
 * A zod schema for a row with `fields`: each requested field must be present (the service answers
 * exactly the requested keys); extra keys are dropped.
 */
export function callRecordSchema<F extends CallField>(fields: readonly F[], timeZone: string): z.ZodType<CallRecord<F>> {
  const shape: Record<string, z.ZodType> = {};
  for (const f of fields) shape[f] = fieldSchema(f, timeZone);
  return z.object(shape) as unknown as z.ZodType<CallRecord<F>>;
}
