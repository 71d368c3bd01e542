// Following a call to its outcome: one shared poll of the service's call log every
// OUTCOME_POLL_MS, and CALL_RING_SECONDS, how long the service rings a party.
import type { EnvReader } from './env.ts';

export interface OutcomeSettings {
  pollMs: number;
  ringSeconds: number;
}

export function readOutcome(env: EnvReader): OutcomeSettings {
  return {
    pollMs: env.duration('OUTCOME_POLL_MS', 250, 60_000) ?? 4000,
    ringSeconds: env.duration('CALL_RING_SECONDS', 1, 300) ?? 30,
  };
}
