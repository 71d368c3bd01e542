// When a held call may be placed, and how long each wait is. The service publishes no call states,
// so every "has it happened?" is read in the call log after the ring time (we assume 30 s per
// party, CALL_RING_SECONDS; docs/service-interface.md); office hours are those of the call's
// department (DEPARTMENTS_FILE), or WORKING_HOURS in TIMEZONE without departments.
import type { Config } from '../../config/index.ts';
import { departmentOf } from '../../departments/department.ts';
import { openWindows } from '../../schedule/open-windows.ts';

export interface HeldTiming {
  /** Lease on a claimed job; renewed every third of it while the job is being handled. */
  leaseMs: number;
  /**
   * After an attempt that may have reached the service, the call log is conclusive this long after
   * it started: the agent's ring, then the visitor's (agent first), each up to CALL_RING_SECONDS.
   */
  checkAfterMs: number;
  /** How often a placed call's outcome is looked up again while it is still going on. */
  followPollMs: number;
  /** Past this age a placed call whose outcome the log never showed is left alone (never re-dialled blindly). */
  followGiveUpMs: number;
  /** A booked call or a re-dial is placed at most this long after its time (office closed, a site cap), else it fails. */
  maxLateMs: number;
  /** Retries while the service is unreachable: base·2^n, capped, jittered into [½, 1]×. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** The call log could not be read: look again after this. */
  logRetryMs: number;
}

export function heldTiming(config: Config): HeldTiming {
  const ringMs = config.outcome.ringSeconds * 1000;
  return {
    leaseMs: config.held.leaseSec * 1000,
    checkAfterMs: 2 * ringMs,
    followPollMs: Math.max(15_000, config.outcome.pollMs),
    followGiveUpMs: 20 * 60_000,
    maxLateMs: 24 * 3_600_000,
    backoffBaseMs: 5_000,
    backoffMaxMs: 60_000,
    logRetryMs: 30_000,
  };
}

const DAY_MS = 86_400_000;

/** The first instant at or after `at` inside the department's office hours, if there is one within `horizonMs`. */
export function openAtOrAfter(config: Config, at: number, horizonMs: number, department?: string): number | null {
  const { hours, timeZone } = departmentOf(config.departments, department);
  if (!hours) return at;
  const first = openWindows(hours, timeZone, new Date(at), new Date(at + horizonMs))[0];
  return first ? first.opensAt.getTime() : null;
}

/** When the department's office window open at `at` closes (Infinity without hours); null when closed at `at`. */
export function closesAfter(config: Config, at: number, department?: string): number | null {
  const { hours, timeZone } = departmentOf(config.departments, department);
  if (!hours) return Number.POSITIVE_INFINITY;
  const first = openWindows(hours, timeZone, new Date(at), new Date(at + 8 * DAY_MS))[0];
  return first && first.opensAt.getTime() <= at ? first.closesAt.getTime() : null;
}
