// JSON log lines, written by pino. The relay's own interface stays `log.info(msg, fields)` and
// `child(fields)`: a thin facade, so the call sites read as before and pino stays replaceable.
// Two promises hold for every line, whatever a caller passes: secrets listed at creation are
// replaced, and phone-shaped digit runs are masked (mask.ts). Both are applied by pino's
// `hooks.streamWrite` to the finished line, because a number or a key can hide anywhere in it
// (a message, a URL, an upstream error text, a child's bindings); per-key serializers or `redact`
// paths would only see the places someone thought of.
import { pino, type DestinationStream, type Logger as Pino } from 'pino';
import { maskLine, secretForms } from './mask.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export type Fields = Record<string, unknown>;
export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  child(fields: Fields): Logger;
}

/** The logger createLogger makes: it owns the output, so it is the one that can flush it. */
export interface RootLogger extends Logger {
  /** Writes out what is buffered; main.ts calls it on shutdown (process exit flushes too). */
  flush(): Promise<void>;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Values that must never be printed (the Auth-key, secrets). */
  secrets?: readonly string[];
  /** Takes each line (without its newline) as it is logged, synchronously: tests capture lines so. */
  write?: (line: string) => void;
  /**
   * Where lines go when `write` is not given: a file descriptor or a file path; default stdout.
   * Written asynchronously through pino.destination (sonic-boom): lines logged while a write is in
   * flight go out together in the next one, and what is buffered is flushed on process exit.
   */
  destination?: number | string;
}

/** The ISO time of now; one Date per millisecond, however many lines share it. */
let lastMs = -1;
let lastTime = '';
function isoTime(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastTime = `,"time":"${new Date(ms).toISOString()}"`;
  }
  return lastTime;
}

/** Errors as name, code and message: no stack in production logs (pino's default keeps it). */
function errorFields(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const code = (value as { code?: unknown }).code;
  return { name: value.name, message: value.message, ...(code !== undefined && { code }) };
}

export function createLogger(options: LoggerOptions = {}): RootLogger {
  const secrets = secretForms(options.secrets ?? []);
  const write = options.write;
  const stream: DestinationStream = write
    ? { write: (line: string) => write(line.endsWith('\n') ? line.slice(0, -1) : line) }
    : // minLength 1 writes each line as soon as no write is in flight, as the default 0 does, but
      // with it sonic-boom's flush waits for the writes in flight (with 0 it returns at once).
      pino.destination({ dest: options.destination ?? 1, sync: false, minLength: 1 });
  const root = pino(
    {
      level: options.level ?? 'info',
      base: null, // no pid and hostname on every line: the collector knows where lines come from
      timestamp: isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: errorFields },
      hooks: { streamWrite: (line) => maskLine(line, secrets) },
    },
    stream,
  );
  const facade = new PinoFacade(root);
  return Object.assign(facade, {
    flush: () => new Promise<void>((resolve) => root.flush(() => resolve())), // a failed fsync (a pipe) is no reason to wait
  });
}

// Arguments in the relay's order (message, then fields) handed to pino in its order.
class PinoFacade implements Logger {
  private readonly pino: Pino;

  constructor(instance: Pino) {
    this.pino = instance;
  }

  debug(msg: string, fields?: Fields): void {
    if (fields === undefined) this.pino.debug(msg);
    else this.pino.debug(fields, msg);
  }
  info(msg: string, fields?: Fields): void {
    if (fields === undefined) this.pino.info(msg);
    else this.pino.info(fields, msg);
  }
  warn(msg: string, fields?: Fields): void {
    if (fields === undefined) this.pino.warn(msg);
    else this.pino.warn(fields, msg);
  }
  error(msg: string, fields?: Fields): void {
    if (fields === undefined) this.pino.error(msg);
    else this.pino.error(fields, msg);
  }
  /** Pino serializes a child's fields once, when it is made: later lines reuse the text. */
  child(fields: Fields): Logger {
    return new PinoFacade(this.pino.child(fields));
  }
}
