// The visitor's consent: whether a callback needs the consent tick (REQUIRE_CONSENT), and where the
// consent records go (CONSENT_LOG_PATH; unset: the store).
import type { EnvReader } from './env.ts';

export interface ConsentSettings {
  required: boolean;
  /** A JSON-lines file instead of the store; null: the store. */
  logPath: string | null;
}

export function readConsent(env: EnvReader): ConsentSettings {
  return {
    required: env.flag('REQUIRE_CONSENT') ?? false,
    logPath: env.text('CONSENT_LOG_PATH') ?? null,
  };
}
