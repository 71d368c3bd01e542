// JSON log lines on stdout. Two promises hold for every line, whatever a caller passes:
// secrets listed at creation are replaced, and any phone-number-shaped run of 7+ digits (in a
// message, a URL, an error text) is masked. Callers should still log masked numbers on purpose
// (maskPhone); this is the safety net. Timestamps, dates, UUIDs and IP addresses are left alone.
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type Fields = Record<string, unknown>;
export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  /** Whether lines of this level are written (to skip building costly fields). */
  enabled(level: Exclude<LogLevel, 'silent'>): boolean;
  child(fields: Fields): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Values that must never be printed (the Auth-key, secrets). */
  secrets?: readonly string[];
  write?: (line: string) => void;
  base?: Fields;
}

/** `+380501234567` → `+38050*****67`: enough to tell calls apart in support, not enough to dial. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 7) return '*'.repeat(digits.length);
  const prefix = phone.trim().startsWith('+') ? '+' : '';
  return `${prefix}${digits.slice(0, 5)}${'*'.repeat(digits.length - 7)}${digits.slice(-2)}`;
}

// A run of digits with the separators people type in phone numbers, standing alone: not part of
// a word, a hex id, a dotted address or a longer dash-joined token (so UUID groups are not hit).
const phoneLike = /(?<![\w.-])\+?\d(?:[ ()-]{0,2}\d){6,}(?![\w.-])/g;
const isoDate = /^\d{4}-\d{2}-\d{2}$/;

function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[secret]');
  return out.replace(phoneLike, (run) => (isoDate.test(run) || run.replace(/\D/g, '').length < 7 ? run : maskPhone(run)));
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const threshold = rank[options.level ?? 'info'];
  const secrets = (options.secrets ?? []).filter((s) => s.length >= 4);
  const write = options.write ?? ((line: string) => process.stdout.write(line + '\n'));

  // Children share everything but their fields: making one per request costs one object.
  const make = (base: Fields): Logger => {
    const emit = (level: LogLevel, msg: string, fields?: Fields) => {
      if (rank[level] < threshold) return;
      let body: string;
      try {
        body = JSON.stringify({ level, msg, ...base, ...fields }, errorAware);
      } catch {
        body = JSON.stringify({ level, msg, note: 'fields not serializable' });
      }
      // The timestamp is added after scrubbing: it is ours, and digit masking must not touch it.
      write(`{"time":"${new Date().toISOString()}",${scrub(body, secrets).slice(1)}`);
    };
    return {
      debug: (m, f) => emit('debug', m, f),
      info: (m, f) => emit('info', m, f),
      warn: (m, f) => emit('warn', m, f),
      error: (m, f) => emit('error', m, f),
      enabled: (level) => rank[level] >= threshold,
      child: (fields) => make({ ...base, ...fields }),
    };
  };
  return make(options.base ?? {});
}

/** Errors serialize to their name, code and message (no stack in production logs). */
function errorAware(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return { name: value.name, message: value.message, ...(code !== undefined && { code }) };
  }
  return value;
}
