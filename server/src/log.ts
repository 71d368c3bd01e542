// JSON log lines on stdout. Two promises hold for every line, whatever a caller passes:
// secrets listed at creation are replaced, and any run of 7+ digits (a phone number, wherever it
// hides: a message, a URL, an error text) is masked. Callers should still log masked numbers on
// purpose (maskPhone); this is the safety net.
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type Fields = Record<string, unknown>;
export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
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

const longDigitRun = /\+?\d[\d ()-]{5,}\d/g;

function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[secret]');
  return out.replace(longDigitRun, (run) => (run.replace(/\D/g, '').length >= 7 ? maskPhone(run) : run));
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const threshold = rank[options.level ?? 'info'];
  const secrets = (options.secrets ?? []).filter((s) => s.length >= 4);
  const write = options.write ?? ((line: string) => process.stdout.write(line + '\n'));
  const base = options.base ?? {};

  const emit = (level: LogLevel, msg: string, fields?: Fields) => {
    if (rank[level] < threshold) return;
    let line: string;
    try {
      line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...base, ...fields }, errorAware);
    } catch {
      line = JSON.stringify({ time: new Date().toISOString(), level, msg, note: 'fields not serializable' });
    }
    write(scrub(line, secrets));
  };

  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => createLogger({ ...options, base: { ...base, ...fields } }),
  };
}

/** Errors serialize to their name, code and message (no stack in production logs). */
function errorAware(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return { name: value.name, message: value.message, ...(code !== undefined && { code }) };
  }
  return value;
}
