// Calls the relay holds for later: booked ahead by the visitor (SCHEDULE_MAX_DAYS), queued while the
// service is unreachable (QUEUE_MAX_WAIT_SECONDS), or re-dialled when nobody answered
// (REDIAL_ATTEMPTS, REDIAL_DELAY_SECONDS); HELD_LEASE_SECONDS is how long a relay that crashed
// holding one keeps it from the others.
import type { EnvReader } from './env.ts';

export interface HeldSettings {
  /** How long a call is held while the service is unreachable; 0: no holding, the visitor gets 503. */
  queueMaxWaitSec: number;
  redialAttempts: number;
  redialDelaySec: number;
  /** How far ahead a visitor may book a call. */
  scheduleMaxDays: number;
  /** A relay's claim on a held call it is placing; renewed while it works on it, so only a crashed relay's claim runs out. */
  leaseSec: number;
}

export function readHeld(env: EnvReader): HeldSettings {
  return {
    queueMaxWaitSec: env.duration('QUEUE_MAX_WAIT_SECONDS', 0, 86_400) ?? 600,
    redialAttempts: env.whole('REDIAL_ATTEMPTS', 0, 5) ?? 1,
    redialDelaySec: env.duration('REDIAL_DELAY_SECONDS', 0, 86_400) ?? 300,
    scheduleMaxDays: env.duration('SCHEDULE_MAX_DAYS', 1, 60) ?? 7,
    leaseSec: env.duration('HELD_LEASE_SECONDS', 10, 3_600) ?? 60,
  };
}
