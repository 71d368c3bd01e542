// Environment of the standalone simulator (`npm run simulator`), parsed once with zod.
// A bad value stops startup with one line naming the variable and what it expects.
import { z } from 'zod';
import { DEFAULTS } from './assumptions.ts';
import { normalizeScheme } from './routing.ts';
import type { RoutingScheme, SimulatorOptions } from './types.ts';

const intIn = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `a whole number ${min}..${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `a whole number ${min}..${max}`);

const Env = z.object({
  SIMULATOR_PORT: intIn(0, 65535).default(8090),
  SIMULATOR_HOST: z.string().min(1, 'a host name or address').default('127.0.0.1'),
  SIMULATOR_AUTH_KEY: z.string().min(8, 'at least 8 characters').max(200, 'at most 200 characters').optional(),
  SIMULATOR_PROJECT_ID: z
    .string()
    .regex(/^\d{1,20}$/, 'digits only')
    .optional(),
  SIMULATOR_OFFICE_LINE: z
    .string()
    .regex(/^\+?[1-9]\d{6,14}$/, 'a phone number in international format')
    .optional(),
  SIMULATOR_AGENT_DRIFT_MS: intIn(0, 86_400_000).default(15_000),
  SIMULATOR_ROUTE_URL: z.string().url('an http(s) URL').optional(),
  SIMULATOR_ROUTE_METHOD: z.enum(['GET', 'POST', 'PUT', 'DELETE'], 'GET, POST, PUT or DELETE').default('POST'),
  SIMULATOR_ROUTE_SUBMISSION: z.enum(['http', 'json'], 'http or json').default('json'),
  SIMULATOR_ROUTE_IMPORT: z.enum(['http', 'json'], 'http or json').default('json'),
  SIMULATOR_ROUTE_FIELD: z.string().min(1).max(100).optional(),
  SIMULATOR_ROUTE_TIMEOUT: z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'seconds, e.g. 3')
    .transform(Number)
    .refine((n) => n > 0 && n <= 60, 'seconds in (0, 60]')
    .optional(),
});

export class EnvError extends Error {
  override readonly name = 'EnvError';
}

export interface StandaloneConfig {
  port: number;
  host: string;
  options: SimulatorOptions;
  scheme: RoutingScheme | null;
}

export function readEnv(raw: Record<string, string | undefined>): StandaloneConfig {
  // Empty strings count as unset, as most deploy tools write them.
  const present = Object.fromEntries(Object.entries(raw).filter(([k, v]) => k.startsWith('SIMULATOR_') && v !== undefined && v !== ''));
  const parsed = Env.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new EnvError(`${name}: expected ${issue?.message ?? 'a valid value'}`);
  }
  const e = parsed.data;
  const options: SimulatorOptions = {
    authKey: e.SIMULATOR_AUTH_KEY ?? DEFAULTS.authKey,
    projectId: e.SIMULATOR_PROJECT_ID ?? DEFAULTS.projectId,
    officeLine: e.SIMULATOR_OFFICE_LINE ?? DEFAULTS.officeLine,
  };
  if (e.SIMULATOR_AGENT_DRIFT_MS > 0) {
    if (e.SIMULATOR_AGENT_DRIFT_MS < 100) throw new EnvError('SIMULATOR_AGENT_DRIFT_MS: expected 0 (off) or at least 100');
    options.agentDrift = { everyMs: e.SIMULATOR_AGENT_DRIFT_MS };
  }

  let scheme: RoutingScheme | null = null;
  if (e.SIMULATOR_ROUTE_URL) {
    scheme = {
      url: e.SIMULATOR_ROUTE_URL,
      method: e.SIMULATOR_ROUTE_METHOD,
      submission: e.SIMULATOR_ROUTE_SUBMISSION,
      import: e.SIMULATOR_ROUTE_IMPORT,
      destinationField: e.SIMULATOR_ROUTE_FIELD ?? (e.SIMULATOR_ROUTE_IMPORT === 'json' ? 'destination' : undefined),
      timeoutSeconds: e.SIMULATOR_ROUTE_TIMEOUT,
    };
    try {
      normalizeScheme(scheme);
    } catch (error) {
      throw new EnvError(`SIMULATOR_ROUTE_URL: ${(error as Error).message}`);
    }
  }
  return { port: e.SIMULATOR_PORT, host: e.SIMULATOR_HOST, options, scheme };
}
