// What every route may use, built once by createRelay. Routes take this instead of reaching for
// globals, so tests can build a relay with any piece replaced.
import type { Config } from './config.ts';
import type { CallTrackingClient } from './calltracking/client.ts';
import type { Logger } from './log.ts';
import type { OriginPolicy } from './http/origin.ts';
import type { AgentStatus } from './agents/agent-status.ts';
import type { ConsentLog } from './callback/consent-log.ts';
import type { AcceptedCalls } from './outcome/accepted-calls.ts';
import type { Protection } from './protect/protection.ts';
import type { OfficeHours } from './schedule/office-hours.ts';

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
