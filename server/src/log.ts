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
  child(fields: Fields): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Values that must never be printed (the Auth-key, secrets). */
  secrets?: readonly string[];
  /** Takes each line as it is logged, synchronously (tests capture lines this way). */
  write?: (line: string) => void;
  /**
   * Where lines go when `write` is not given; default process.stdout. The lines of one event-loop
   * turn are written together, once the turn's I/O is handled (see batchedWriter).
   */
  sink?: { write(chunk: string): unknown };
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

/** The ISO time of now; one Date per millisecond, however many lines share it. */
let lastMs = -1;
let lastIso = '';
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/**
 * How a record of fields is written into a line, or null when it must take the general path:
 * a key that `level`/`msg` or the logger's base fields also have (the later one wins, in its
 * place), or a key JSON.stringify would move to the front (array indexes). `errors` tells whether
 * a value is an object, which may be or hold an Error and so needs the errorAware replacer.
 */
function plainKeys(fields: Fields, base: JsonLogger | null): { errors: boolean } | null {
  let errors = false;
  for (const key of Object.keys(fields)) {
    if (key === 'level' || key === 'msg' || (base !== null && base.hasKey(key))) return null;
    const c = key.charCodeAt(0);
    if (c >= 48 && c <= 57) return null;
    const value = fields[key];
    if (typeof value === 'object' && value !== null) errors = true;
  }
  return { errors };
}

const noFields = { errors: false };

/** `{"a":1,"b":2}` → `,"a":1,"b":2`; `{}` → ``. */
function fragment(fields: Fields, errors: boolean): string {
  const json = errors ? JSON.stringify(fields, errorAware) : JSON.stringify(fields);
  return json.length > 2 ? ',' + json.slice(1, -1) : '';
}

/** The per-line writer for a sink: one write per event-loop turn instead of one per line. */
function batchedWriter(sink: { write(chunk: string): unknown }): (line: string) => void {
  let pending = '';
  const flush = () => {
    pending && sink.write(pending);
    pending = '';
    unflushed.delete(flush);
  };
  return (line) => {
    if (pending === '') {
      unflushed.add(flush);
      setImmediate(flush);
    }
    pending += line + '\n';
    if (pending.length >= FLUSH_AT) flush();
  };
}
/** Beyond this many characters a batch is written at once, so memory stays small under floods. */
const FLUSH_AT = 64 * 1024;
/** Writers holding lines; flushed on exit (process.exit, the end of a crash) so none are lost. */
const unflushed = new Set<() => void>();
let exitHook = false;
function flushAllOnExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const flush of [...unflushed]) flush();
  });
}

export function createLogger(options: LoggerOptions = {}): Logger {
  let write = options.write;
  if (!write) {
    // Production writes to a pipe, synchronously on Linux: one write per line would be one system
    // call per line. Lines of one turn of the event loop go out together, in order, once the
    // turn's I/O is done; stdout is flushed on exit.
    write = batchedWriter(options.sink ?? process.stdout);
    flushAllOnExit();
  }
  const output: Output = {
    threshold: rank[options.level ?? 'info'],
    secrets: (options.secrets ?? []).filter((s) => s.length >= 4),
    write,
  };
  return new JsonLogger(output, null, {});
}

interface Output {
  threshold: number;
  secrets: readonly string[];
  write: (line: string) => void;
}

// A class rather than closures, and a child keeps a link to its parent rather than a merged copy
// of the fields: a child per request then costs one small object (tsx names every function it
// compiles, which makes each new closure costly; merging objects per request is not free either).
class JsonLogger implements Logger {
  /** The base fields (the parent's, then this logger's own) as JSON `,"k":v…`, made at the first
   * line; null: build each line whole. */
  private baseFragment: string | null | undefined;
  private readonly output: Output;
  private readonly parent: JsonLogger | null;
  private readonly own: Fields;

  constructor(output: Output, parent: JsonLogger | null, own: Fields) {

    this.output = output;
    this.parent = parent;
    this.own = own;

  }

  debug(msg: string, fields?: Fields): void {
    if (rank.debug >= this.output.threshold) this.emit('debug', msg, fields);
  }
  info(msg: string, fields?: Fields): void {
    if (rank.info >= this.output.threshold) this.emit('info', msg, fields);
  }
  warn(msg: string, fields?: Fields): void {
    if (rank.warn >= this.output.threshold) this.emit('warn', msg, fields);
  }
  error(msg: string, fields?: Fields): void {
    if (rank.error >= this.output.threshold) this.emit('error', msg, fields);
  }
  child(fields: Fields): Logger {
    return new JsonLogger(this.output, this, fields);
  }

  /** Whether some base field is named `key`. */
  hasKey(key: string): boolean {
    for (let l: JsonLogger | null = this; l !== null; l = l.parent) if (Object.hasOwn(l.own, key)) return true;
    return false;
  }

  /** The base fields merged as `{ ...parent, ...own }` merges them (the general path only). */
  private base(): Fields {
    return this.parent ? { ...this.parent.base(), ...this.own } : this.own;
  }

  private fragmentOfBase(): string | null {
    if (this.baseFragment === undefined) {
      try {
        const parentFragment = this.parent ? this.parent.fragmentOfBase() : '';
        const plain = parentFragment === null ? null : plainKeys(this.own, this.parent);
        // Objects in the base may change between lines: only primitives are written once.
        this.baseFragment = parentFragment !== null && plain && !plain.errors ? parentFragment + fragment(this.own, false) : null;
      } catch {
        this.baseFragment = null;
      }
    }
    return this.baseFragment;
  }

  private emit(level: LogLevel, msg: string, fields: Fields | undefined): void {
    let body: string;
    try {
      const baseFragment = this.fragmentOfBase();
      const fieldsPlain = baseFragment === null ? null : fields === undefined ? noFields : plainKeys(fields, this);
      if (baseFragment !== null && fieldsPlain !== null) {
        // The common case, built from parts: the same text JSON.stringify gives for the whole.
        body = `{"level":"${level}","msg":${JSON.stringify(msg)}${baseFragment}${fields === undefined ? '' : fragment(fields, fieldsPlain.errors)}}`;
      } else {
        body = JSON.stringify({ level, msg, ...this.base(), ...fields }, errorAware);
      }
    } catch {
      body = JSON.stringify({ level, msg, note: 'fields not serializable' });
    }
    // The timestamp is added after scrubbing: it is ours, and digit masking must not touch it.
    this.output.write(`{"time":"${isoNow()}",${scrub(body, this.output.secrets).slice(1)}`);
  }
}

/** Errors serialize to their name, code and message (no stack in production logs). */
function errorAware(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return { name: value.name, message: value.message, ...(code !== undefined && { code }) };
  }
  return value;
}
