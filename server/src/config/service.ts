// The call-tracking service: where it is and how to sign in (CALLTRACKING_*), whom it calls first
// (CALLBACK_*), how long to wait for it (UPSTREAM_TIMEOUT_MS) and how long its agents' status is
// reused (STATUS_CACHE_MS). Without CALLTRACKING_BASE_URL the embedded simulator is the service and
// the relay runs in demo mode.
import { type EnvReader, requiredError } from './env.ts';

/** The service's projects keep their call log in Kyiv time unless CALLTRACKING_TIMEZONE says otherwise. */
export const DEFAULT_PROJECT_TIME_ZONE = 'Europe/Kyiv';

/** Values the embedded simulator supplies when CALLTRACKING_BASE_URL is unset (demo mode). */
export interface SimulatorDefaults {
  baseUrl: string;
  authKey: string;
  projectId: string;
  caller: string;
  /** The simulator's project time zone (default Europe/Kyiv). */
  timeZone?: string;
}

/**
 * What CALLTRACKING_PROJECT_ID and CALLBACK_CALLER default to against an external service: the
 * simulator's values, so the standalone simulator works with a base URL and a key alone. Against
 * the real service the defaults are wrong, so using one is a startup warning.
 */
export interface ServiceFallbacks {
  projectId: string;
  caller: string;
}

export interface ServiceSettings {
  /** Demo mode (DEMO; default: no base URL): `/` and `/owner` are served. */
  demo: boolean;
  /** A real service (CALLTRACKING_BASE_URL set), not the embedded simulator. */
  external: boolean;
  baseUrl: string;
  authKey: string;
  projectId: string;
  /** The project's zone in the service (calls/list `from`/`to` and dates are in it). */
  timeZone: string;
  upstreamTimeoutMs: number;
  /** How long `/api/status` reuses the agents' SIP status. */
  statusCacheMs: number;
  /** The callback method's parameters, passed to the service as given. */
  callback: { caller: string; callerType: 'default' | 'scheme'; direction: 'in' | 'out'; managerDst: 0 | 1 };
}

export interface ServiceSources {
  simulator: SimulatorDefaults | undefined;
  fallbacks: ServiceFallbacks | undefined;
  /** Settings that fell back to a default an operator should replace (main.ts logs each). */
  warn(line: string): void;
}

export function readService(env: EnvReader, { simulator, fallbacks, warn }: ServiceSources): ServiceSettings {
  const baseUrl = env.url('CALLTRACKING_BASE_URL', 'http');
  const authKey = env.text('CALLTRACKING_AUTH_KEY', { check: (key) => key.length >= 8, expected: 'the project Auth-key (at least 8 characters)', secret: true });
  const projectId = env.text('CALLTRACKING_PROJECT_ID', { pattern: /^\S+$/, expected: 'the project id' });
  const caller = env.text('CALLBACK_CALLER', { pattern: /^\S{2,64}$/, expected: 'a number, SIP login or scheme id' });
  const callback = {
    callerType: env.oneOf('CALLBACK_CALLER_TYPE', ['default', 'scheme'] as const) ?? 'default',
    direction: env.oneOf('CALLBACK_DIRECTION', ['in', 'out'] as const) ?? 'out',
    managerDst: Number(env.oneOf('CALLBACK_MANAGER_DST', ['0', '1'] as const) ?? '1') as 0 | 1,
  };
  const demo = env.flag('DEMO');
  const timeZone = env.timeZone('CALLTRACKING_TIMEZONE', simulator?.timeZone ?? DEFAULT_PROJECT_TIME_ZONE);
  const upstreamTimeoutMs = env.duration('UPSTREAM_TIMEOUT_MS', 100, 120_000) ?? 8000;
  const statusCacheMs = env.duration('STATUS_CACHE_MS', 0, 600_000) ?? 5000;
  const timing = { timeZone, upstreamTimeoutMs, statusCacheMs };

  if (baseUrl === undefined) {
    if (!simulator) throw requiredError('CALLTRACKING_BASE_URL', "when no simulator stands in for the service (the service's base URL, e.g. https://api.ringostat.net)");
    const service = { baseUrl: withoutSlash(simulator.baseUrl), authKey: authKey ?? simulator.authKey, projectId: projectId ?? simulator.projectId };
    return { demo: demo ?? true, external: false, ...service, ...timing, callback: { caller: caller ?? simulator.caller, ...callback } };
  }
  if (!authKey) throw requiredError('CALLTRACKING_AUTH_KEY', "when CALLTRACKING_BASE_URL is set (the project Auth-key from the service's integration section)");
  const project = projectId ?? fallbacks?.projectId;
  if (!project) throw requiredError('CALLTRACKING_PROJECT_ID', 'when CALLTRACKING_BASE_URL is set (the projectId of the extended callback)');
  const first = caller ?? fallbacks?.caller;
  if (!first) throw requiredError('CALLBACK_CALLER', 'when CALLTRACKING_BASE_URL is set (the number, SIP login or scheme that is called first)');
  if (!projectId) warn(`CALLTRACKING_PROJECT_ID is not set: using the simulator's "${project}"; the real service refuses callbacks until it is set`);
  if (!caller) warn(`CALLBACK_CALLER is not set: using the simulator's office line "${first}"; set the number, SIP login or scheme to call first`);
  return { demo: demo ?? false, external: true, baseUrl: withoutSlash(baseUrl), authKey, projectId: project, ...timing, callback: { caller: first, ...callback } };
}

/** The client appends paths to the base URL. */
const withoutSlash = (url: string) => url.replace(/\/+$/, '');
