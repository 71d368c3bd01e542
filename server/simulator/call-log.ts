// The call log: rows, the exportable field names and how each row field is exported.
// Field names and their quirks follow the facts: billsec/duration are integers, while waittime,
// duration_ms and has_recording arrive as strings (facts: doc/seen). `user_agent` is our assumption.
import { randomUUID } from 'node:crypto';
import { RECORDING_BASE, UTM_PLACEHOLDERS } from './assumptions.ts';
import type { ProjectTime } from './project-time.ts';
import type { CallOrigin, CallType, SimCall } from './types.ts';

type Exported = string | number;

/** Export field name -> how to read it from a row. Order here is irrelevant: output follows `fields`. */
const EXPORTERS: Record<string, (c: SimCall, t: ProjectTime) => Exported> = {
  calldate: (c, t) => t.formatCalldate(c.calldate),
  caller: (c) => c.caller,
  dst: (c) => c.dst,
  disposition: (c) => c.disposition,
  billsec: (c) => c.billsec,
  utm_source: (c) => c.utmSource,
  utm_medium: (c) => c.utmMedium,
  utm_campaign: (c) => c.utmCampaign,
  utm_content: (c) => c.utmContent,
  utm_term: (c) => c.utmTerm,
  recording: (c) => c.recording,
  pool_name: (c) => c.poolName,
  duration: (c) => c.duration,
  call_type: (c) => c.callType,
  waittime: (c) => String(c.waittime),
  duration_ms: (c) => String(c.durationMs),
  connected_with: (c) => c.connectedWith,
  uniqueid: (c) => c.uniqueid,
  client_id: (c) => c.clientId,
  remote_ip: (c) => c.clientIp,
  landing: (c) => c.landing,
  call_card: (c) => c.callCard,
  has_recording: (c) => (c.hasRecording ? '1' : '0'),
  scheme_name: (c) => c.schemeName,
  refferrer: (c) => c.referrer,
  user_agent: (c) => c.userAgent,
};

export const EXPORT_FIELDS: readonly string[] = Object.keys(EXPORTERS);

export function isExportField(name: string): boolean {
  return Object.hasOwn(EXPORTERS, name);
}

/** One exported row with exactly `fields`, in that order. */
export function exportRow(call: SimCall, fields: readonly string[], time: ProjectTime): Record<string, Exported> {
  const row: Record<string, Exported> = {};
  for (const f of fields) {
    const read = EXPORTERS[f];
    if (read) row[f] = read(call, time);
  }
  return row;
}

/** A fresh row in progress, with every field filled (placeholders for utm, '' for the rest). */
export function newCall(init: { origin: CallOrigin; callType: CallType; calldate: Date; caller: string; dst: string; visitor: string }): SimCall {
  return {
    uniqueid: newUniqueId(init.calldate),
    calldate: init.calldate,
    caller: init.caller,
    dst: init.dst,
    disposition: 'IN PROGRESS',
    billsec: 0,
    duration: 0,
    waittime: 0,
    durationMs: 0,
    callType: init.callType,
    ...UTM_PLACEHOLDERS,
    recording: '',
    hasRecording: false,
    poolName: '',
    connectedWith: '',
    clientId: '',
    clientIp: '',
    userAgent: '',
    landing: '',
    callCard: '',
    schemeName: '',
    referrer: '',
    agent: null,
    state: 'agent_ringing',
    origin: init.origin,
    visitor: init.visitor,
    managerDst: null,
  };
}

/** Asterisk-style unique id: `<epoch seconds>.<sequence>`, unique within the process. */
let sequence = 0;
function newUniqueId(at: Date): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${Math.floor(at.getTime() / 1000)}.${sequence}`;
}

export function recordingUrl(uniqueid: string): string {
  return `${RECORDING_BASE}${encodeURIComponent(uniqueid)}.ogg?token=${randomUUID().replaceAll('-', '')}`;
}
