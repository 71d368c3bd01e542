// Reading settings from the environment: one helper per kind of value, and one error style for all
// of them. A wrong setting stops startup with ONE line that names the variable and says what is
// expected, e.g. `PORT: expected a whole number from 0 to 65535, got "eighty"`, so an operator can
// fix it without reading code. Every area module (service.ts, http.ts, …) reads through this file.
//
// An empty variable counts as unset: compose files and systemd units often write `NAME=`.
// A helper returns undefined for an unset variable; the area module writes its default next to the
// call (`env.whole('PORT', 0, 65535) ?? 8080`), so the default sits beside the name.
import { asOrigin, durationUnit, FLAGS, isTimeZone, ORIGIN_EXPECTED, parseUrl, type TextRule, URL_RULES, type UrlRule } from './env-values.ts';

export type EnvRecord = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

// The one error style, in two forms:
//   NAME: expected <what a valid value looks like>[, got "<the value>" | ; <what is wrong with it>]
//   NAME: required <when> (<what to set>)
// always on one line: a value with a newline in it cannot split it.
function configError(name: string, detail: string): ConfigError {
  return new ConfigError(`${name}: ${detail}`.replace(/\s*[\r\n]+\s*/g, ' '));
}

/** A value that is wrong. `value` is shown unless `secret`: startup errors end up in logs. */
export function expectedError(name: string, expected: string, value?: string, secret = false): ConfigError {
  if (value === undefined || secret) return configError(name, `expected ${expected}`);
  const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  return configError(name, `expected ${expected}, got ${JSON.stringify(shown)}`);
}

/** A variable that is missing, though another setting needs it. */
export const requiredError = (name: string, when: string): ConfigError => configError(name, `required ${when}`);

export type EnvReader = ReturnType<typeof envReader>;

/** The helpers over one environment record (process.env in main.ts, a plain object in tests). */
export function envReader(raw: EnvRecord) {
  const given = (name: string): string | undefined => (raw[name] === '' ? undefined : raw[name]);

  const whole = (name: string, min: number, max: number, unit = ''): number | undefined => {
    const value = given(name);
    if (value === undefined) return undefined;
    const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!(n >= min && n <= max)) throw expectedError(name, `a whole number from ${min} to ${max}${unit}`, value);
    return n;
  };

  /** A comma-separated list; each entry through `entry` (null: refused), at least one entry. */
  const list = <T>(name: string, entry: (item: string) => T | null, expected: string): T[] | undefined => {
    const value = given(name);
    if (value === undefined) return undefined;
    const items = value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    if (items.length === 0) throw expectedError(name, expected, value);
    return items.map((item) => {
      const parsed = entry(item);
      if (parsed === null) throw expectedError(name, expected, item);
      return parsed;
    });
  };

  return {
    text(name: string, rule: TextRule = {}): string | undefined {
      const value = given(name);
      if (value === undefined) return undefined;
      if ((rule.pattern && !rule.pattern.test(value)) || (rule.check && !rule.check(value))) {
        throw expectedError(name, rule.expected ?? `a value matching ${rule.pattern}`, value, rule.secret);
      }
      return value;
    },

    whole: (name: string, min: number, max: number): number | undefined => whole(name, min, max),

    /** A whole number of the unit the name ends in (_MS, _SECONDS, _DAYS), returned in that unit. */
    duration(name: string, min: number, max: number): number | undefined {
      return whole(name, min, max, ` ${durationUnit(name)}`);
    },

    /** true, false, 1, 0, yes or no. */
    flag(name: string): boolean | undefined {
      const value = given(name);
      if (value === undefined) return undefined;
      const flag = FLAGS.get(value);
      if (flag === undefined) throw expectedError(name, 'true or false (or 1/0, yes/no)', value);
      return flag;
    },

    oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
      const value = given(name);
      if (value === undefined) return undefined;
      if (!values.includes(value as T)) {
        const choices = values.length === 2 ? values.join(' or ') : `one of ${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
        throw expectedError(name, choices, value);
      }
      return value as T;
    },

    list,

    /** Comma-separated origins (ALLOWED_ORIGINS), normalised as browsers send them. */
    origins: (name: string): string[] | undefined => list(name, asOrigin, ORIGIN_EXPECTED),

    origin(name: string): string | undefined {
      const value = given(name);
      if (value === undefined) return undefined;
      const origin = asOrigin(value);
      if (origin === null) throw expectedError(name, ORIGIN_EXPECTED, value);
      return origin;
    },

    /** A URL by one of the URL_RULES, trimmed; `secret` for URLs that may carry a password. */
    url(name: string, rule: UrlRule, { secret = false } = {}): string | undefined {
      const value = given(name)?.trim();
      if (value === undefined) return undefined;
      const url = parseUrl(value);
      if (!url || !URL_RULES[rule].accepts(url)) throw expectedError(name, URL_RULES[rule].expected, value, secret);
      return value;
    },

    /** An IANA time zone; `fallback` is checked too (it may come from the simulator). */
    timeZone(name: string, fallback: string): string {
      const zone = given(name) ?? fallback;
      if (!isTimeZone(zone)) throw expectedError(name, 'an IANA time zone such as Europe/Kyiv', zone);
      return zone;
    },

    /** A value only a parser can judge (office hours, CIDR lists): its message says what is wrong. */
    parsed<T>(name: string, parse: (value: string) => T, expected: string): T | undefined {
      const value = given(name);
      if (value === undefined) return undefined;
      try {
        return parse(value);
      } catch (err) {
        const problem = (err as Error).message;
        throw configError(name, problem.startsWith('expected ') ? problem : `expected ${expected}; ${problem}`);
      }
    },
  };
}
