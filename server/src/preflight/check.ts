// One line of the pre-flight (`node server/src/main.ts --check`): what was checked, whether it
// passed, and in words what was found and, when it failed, what to do.
export interface Check {
  /** A short name: service, clock, redis, … */
  name: string;
  ok: boolean;
  detail: string;
}

export const pass = (name: string, detail: string): Check => ({ name, ok: true, detail });
export const fail = (name: string, detail: string): Check => ({ name, ok: false, detail });

/** The line printed for `check`: `ok    service    …` or `FAIL  service    …`. */
export function lineOf(check: Check): string {
  return `${check.ok ? 'ok  ' : 'FAIL'}  ${check.name.padEnd(16)} ${check.detail}`;
}
