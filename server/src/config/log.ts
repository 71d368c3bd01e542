// How much the relay logs: LOG_LEVEL, and LOG_REPEAT_WINDOW_MS, the window in which repeats of a
// cheap answer share one summary line.
import type { LogLevel } from '../log/index.ts';
import type { EnvReader } from './env.ts';

export interface LogSettings {
  level: LogLevel;
  /** 0: a line for every request. */
  repeatWindowMs: number;
}

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

export function readLog(env: EnvReader): LogSettings {
  return {
    level: env.oneOf('LOG_LEVEL', LEVELS) ?? 'info',
    repeatWindowMs: env.duration('LOG_REPEAT_WINDOW_MS', 0, 60_000) ?? 1000,
  };
}
