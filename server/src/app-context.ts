// What every route may use, built once by createRelay. Routes take this instead of reaching for
// globals, so tests can build a relay with any piece replaced.
import type { Config } from './config.js';
import type { CallTrackingClient } from './calltracking/client.js';
import type { Logger } from './log.js';
import type { OriginPolicy } from './http/origin.js';
import type { AgentStatus } from './agents/agent-status.js';
import type { ConsentLog } from './callback/consent-log.js';
import type { AcceptedCalls } from './outcome/accepted-calls.js';
import type { Protection } from './protect/protection.js';
import type { OfficeHours } from './schedule/office-hours.js';

/** Protection adds: metrics, limiter, idempotency, captcha, readiness. */
export interface AppContext extends Protection {
  config: Config;
  client: CallTrackingClient;
  log: Logger;
  origins: OriginPolicy;
  agents: AgentStatus;
  consent: ConsentLog;
  accepted: AcceptedCalls;
  /** Whether the office is open now (WORKING_HOURS in TIMEZONE). */
  office: OfficeHours;
  now: () => Date;
}
