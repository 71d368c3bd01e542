// Everything the simulator does that the public material does NOT settle lives here, in one place,
// so that when the real service turns out to differ there is one file to change
// (docs/service-interface.md lists the assumptions; the rest are our own choices).
import type { CallTiming } from './types.ts';

/** Realistic phase lengths for standalone use (ms). Ringostat promises a call within ~30 s. */
export const DEFAULT_TIMING: CallTiming = { agentAnswerMs: 3_000, visitorRingMs: 6_000, talkMs: 20_000 };

export const DEFAULTS = {
  authKey: 'sim-auth-key-0123456789',
  projectId: '100500',
  officeLine: '380441112233',
  timeZone: 'Europe/Kyiv',
  googleId: 'G-SIM0000001',
  agents: [
    { login: 'manager1', number: '380441110001', online: true },
    { login: 'manager2', number: '380441110002', online: true },
    { login: 'manager3', number: '380441110003', online: false },
  ],
  /** UA premium-rate range (0900…): refused like an outbound ban. */
  outboundBanPrefixes: ['380900'],
  /** Routing webhook reply wait (facts: assume 3 s). */
  routeTimeoutSeconds: 3,
  routeSchemeName: 'CRM routing',
} as const;

/** Our documented test convention: numbers ending in '99' never answer. */
export const defaultVisitorAnswers = (e164: string): boolean => !e164.endsWith('99');

/** Export cap per request (facts: doc). More rows in the period answer 400. */
export const MAX_EXPORT_ROWS = 6_500;

/** Largest request body the simulator reads; more answers 413. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * `fields` when the parameter is absent: the fields the interface spec lists (unpublished default).
 */
export const DEFAULT_EXPORT_FIELDS = ['calldate', 'caller', 'dst', 'disposition', 'billsec', 'utm_source', 'utm_medium', 'recording'] as const;

/** Default `order` (unpublished): oldest first. */
export const DEFAULT_ORDER = 'asc' as const;

/**
 * UTM values a row gets when the callback did not carry them: the Google-style placeholders of a
 * direct visit, as Ringostat's own cookie holds them.
 */
export const UTM_PLACEHOLDERS = {
  utmSource: '(direct)',
  utmMedium: '(none)',
  utmCampaign: '(direct)',
  utmContent: '(not set)',
  utmTerm: '(none)',
} as const;

/** Recordings live here (never fetched; only the shape matters). */
export const RECORDING_BASE = 'https://records.sim.invalid/recordings/';

/**
 * JSON-RPC error codes. The -326xx ones are the JSON-RPC 2.0 standard; the others are our choice
 * (the service publishes none). HTTP statuses: 403 and 400 as the spec's error table says, refusals
 * HTTP 200 with an `error` member (facts: seen), protocol errors HTTP 200 as JSON-RPC over HTTP
 * commonly does.
 */
export const RPC = {
  parseError: { code: -32700, http: 200 },
  invalidRequest: { code: -32600, http: 200 },
  methodNotFound: { code: -32601, http: 200 },
  /** caller/callee invalid or empty: HTTP 400 per the spec; other bad params too. */
  invalidParams: { code: -32602, http: 400 },
  /** Bad Auth-key, clientIp or projectId: HTTP 403 per the spec. */
  accessDenied: { code: -32003, http: 403 },
  /** Refusal: number under an outbound ban. */
  outboundBan: { code: -32010, http: 200 },
  /** Refusal: this number already has a callback in progress. */
  alreadyInProgress: { code: -32011, http: 200 },
  /** Default for the `rpc_error` fault. */
  internal: { code: -32000, http: 200 },
} as const;

/** The method name, decoded (on the wire each backslash is doubled inside the JSON string). */
export const CALLBACK_METHOD = 'Api\\V2\\Callback.external';

/** Success body of /callback/outward_call (unpublished): ours. */
export const outwardCallSuccess = (uniqueid: string) => ({ status: 'ok', uniqueid });

/** Success `result` of the extended callback (unpublished; clients must not depend on it). */
export const extendedCallbackResult = (uniqueid: string) => ({ status: 'ok', uniqueid });
