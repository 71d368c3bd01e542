// Public types of the simulator. Other engineers' tests import these through index.ts, so names
// here are a contract: add fields freely, never rename or remove one.
import type { Server } from 'node:http';

/** How long each phase of a simulated call takes, in milliseconds. Tests pass tiny values. */
export interface CallTiming {
  /** From the service accepting a callback until the agent picks up (or gives up: NO ANSWER). */
  agentAnswerMs: number;
  /** How long the visitor's phone rings before they answer (or the service gives up: CLIENT NO ANSWER). */
  visitorRingMs: number;
  /** Length of the conversation once both parties are on the line; billsec is this in whole seconds. */
  talkMs: number;
}

/** Dispositions the call log is known to carry (facts: doc + seen). */
export type Disposition = 'ANSWERED' | 'NO ANSWER' | 'REPEATED' | 'BUSY' | 'FAILED' | 'VOICEMAIL' | 'NO EXTENSION' | 'WRONG EXTENSION' | 'CLIENT NO ANSWER' | 'IN PROGRESS';

/** call_type values (facts: seen). */
export type CallType = 'in' | 'out' | 'callback' | 'transitin' | 'transitout';

/**
 * Where a simulated call is in its life. See lifecycle.ts for the state machine.
 * `ended` is final; `disposition` then tells how it ended.
 */
export type CallState = 'agent_ringing' | 'visitor_ringing' | 'talking' | 'ended';

/** What created a call-log row. */
export type CallOrigin = 'extended_callback' | 'outward_call' | 'inbound' | 'seed';

/**
 * One call-log row, with every exportable field in camelCase (see call-log.ts for the mapping to the
 * export's snake_case names) plus simulator bookkeeping (state, agent, origin, visitor).
 * Objects are live: they change while the call progresses.
 */
export interface SimCall {
  uniqueid: string;
  calldate: Date;
  /** Calling party as the log shows it (for a callback: the visitor, the party the call is about). */
  caller: string;
  /** Destination as the log shows it (for a callback: the line the call was made from). */
  dst: string;
  disposition: Disposition;
  /** Whole seconds of conversation. */
  billsec: number;
  /** Whole seconds from start to end (waittime + billsec). */
  duration: number;
  /** Whole seconds before the conversation started (exported as a string). */
  waittime: number;
  /** duration in milliseconds (exported as a string). */
  durationMs: number;
  callType: CallType;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  utmContent: string;
  utmTerm: string;
  /** Recording URL, '' when there is none. */
  recording: string;
  hasRecording: boolean;
  poolName: string;
  /** SIP login or number the call was connected with, '' when nobody. */
  connectedWith: string;
  clientId: string;
  /** The visitor's IP address as given in clientIp (exported as remote_ip). */
  clientIp: string;
  /** The visitor's user agent as given in clientUserAgent (exported as user_agent: our assumption). */
  userAgent: string;
  landing: string;
  callCard: string;
  schemeName: string;
  /** Exported under the service's misspelled name `refferrer`. */
  referrer: string;
  /** SIP login of the agent handling the call, null when none was found. */
  agent: string | null;
  state: CallState;
  origin: CallOrigin;
  /** The external party's number (the visitor / the inbound caller). */
  visitor: string;
  /** 1: the agent was called first, 0: the visitor was (extended callback only). */
  managerDst: 0 | 1 | null;
}

/** Every request the simulator received, faulted or not, in arrival order. */
export interface RecordedRequest {
  method: string;
  /** Path with query string, exactly as received. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Raw body as text ('' when none). */
  body: string;
  at: Date;
}

export type FaultTarget = 'callback' | 'outward_call' | 'sipstatus' | 'calls' | '*';

interface FaultCommon {
  /** Only the next N matching requests are faulted; unlimited when absent. */
  times?: number;
  /**
   * When true the service does its work first (for example places the call) and only then the
   * reply is broken: the case where a client must NOT retry. Default false: nothing happens.
   */
  handled?: boolean;
}

export type Fault = FaultCommon &
  (
    | { kind: 'reset' }
    | { kind: 'hang' }
    | { kind: 'status'; status: number; body?: string; retryAfter?: number }
    | { kind: 'html' }
    | { kind: 'truncated' }
    | { kind: 'rpc_error'; code?: number; message?: string }
    | { kind: 'delay'; ms: number }
  );

export interface FaultSwitches {
  set(target: FaultTarget, fault: Fault): void;
  /** Switches off one target's fault (an unknown target throws, as set() does), or all of them. */
  clear(target?: FaultTarget): void;
  /** Active faults by target (a copy). */
  list(): Partial<Record<FaultTarget, Fault>>;
}

export interface AgentInfo {
  login: string;
  /** The agent's phone number (digits, international), '' when none. */
  number: string;
  online: boolean;
  /** In a call right now (shows in /sipstatus/speaking). */
  speaking: boolean;
  /** Reserved by a call: ringing or speaking. */
  busy: boolean;
}

export interface AgentControl {
  setOnline(login: string, online: boolean): void;
  list(): AgentInfo[];
}

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RoutingScheme {
  /** Scheme name, shown as scheme_name in the call log. Default 'CRM routing'. */
  name?: string;
  url: string;
  method: RouteMethod;
  /** Data submission type: HTTP(S) parameters or a JSON body (forces POST). */
  submission: 'http' | 'json';
  /** Data import type: the whole plain body, or a member of a JSON object. */
  import: 'http' | 'json';
  /** Name in response for destination; required for JSON import. */
  destinationField?: string;
  /** Maximum wait for the reply, seconds (fractions allowed for tests). Default 3. */
  timeoutSeconds?: number;
  /** Extra webhook parameters; `{caller}`, `{call_id}`, `{dst}` in a value are replaced. */
  params?: Record<string, string>;
}

export type RouteReason = 'routed' | 'no_scheme' | 'http_status' | 'timeout' | 'network_error' | 'empty_body' | 'bad_json' | 'missing_member' | 'invalid_destination';

export interface InboundCallResult {
  /** Where the webhook reply sent the call, null when it was skipped. */
  destination: string | null;
  reason: RouteReason;
  /** HTTP status of the webhook reply, when one arrived. */
  status?: number;
  /** The call-log row of this inbound call. */
  call: SimCall;
  /** The webhook request exactly as sent (method, URL, headers, body). */
  webhook?: { method: string; url: string; headers: Record<string, string>; body: string };
}

export interface RoutingControl {
  configure(scheme: RoutingScheme): void;
  clear(): void;
  readonly scheme: (Readonly<Required<Omit<RoutingScheme, 'destinationField' | 'params'>>> & Pick<RoutingScheme, 'destinationField' | 'params'>) | null;
  /** `from`: the inbound caller's number; `to`: the pool number dialled (default the office line). */
  simulateInboundCall(call: { from: string; to?: string }): Promise<InboundCallResult>;
}

export interface SeedOptions {
  /** Period the seeded rows spread over, evenly; default the last 24 hours. */
  from?: Date;
  to?: Date;
  /** Field values every seeded row takes (e.g. { utmCampaign: 'brand' }). */
  overrides?: Partial<Omit<SimCall, 'state' | 'origin'>>;
}

export interface SimulatorOptions {
  authKey?: string;
  projectId?: string;
  officeLine?: string;
  agents?: Array<{ login: string; number?: string; online?: boolean }>;
  timing?: Partial<CallTiming>;
  /** Does the visitor pick up? Gets E.164 with '+' (`+380501234599`). Default: all but numbers ending in '99'. */
  visitorAnswers?: (e164: string) => boolean;
  now?: () => Date;
  log?: (line: object) => void;
  /** IANA zone of the project: calldate offsets and from/to are in it. Default 'Europe/Kyiv'. */
  timeZone?: string;
  /** Numbers starting with one of these are refused (HTTP 200 with an error: an outbound ban). */
  outboundBanPrefixes?: string[];
  /** Standalone only: agents randomly go on/offline every `everyMs`. Off by default. */
  agentDrift?: { everyMs: number };
  /** Analytics property sent as google_id in routing webhooks. */
  googleId?: string;
}

export interface Simulator {
  server: Server;
  authKey: string;
  projectId: string;
  officeLine: string;
  readonly calls: ReadonlyArray<SimCall>;
  readonly requests: ReadonlyArray<RecordedRequest>;
  faults: FaultSwitches;
  agents: AgentControl;
  routing: RoutingControl;
  /** Adds `count` finished historical calls spread over a period (for the 6,500 cap and day splits). */
  seedCalls(count: number, options?: SeedOptions): SimCall[];
  /** Clears calls (cancelling those in progress), requests and faults; agents return to their initial state. */
  reset(): void;
  close(): Promise<void>;
}
