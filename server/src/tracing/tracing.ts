// Traces of the relay's work for OpenTelemetry: a span per request (its route, its status, the
// callback id; the limits' decision), the stores' calls and the call-tracking requests as its
// children, and a span per pass of the held calls' runner and of each outbox's delivery.
//
// OpenTelemetry's SDK is loaded only when its standard environment asks for traces (otel.ts): until
// then `tracing.enabled` is false and each traced place was built without its wrapper, so a relay
// without tracing pays nothing. Spans never carry a phone number: callback ids, routes and
// decisions only.
export type SpanAttributes = Record<string, string | number | boolean>;

export interface SpanHandle {
  /** Adds attributes to this span. */
  set(attributes: SpanAttributes): void;
  /** Names the span anew (a request's span is named after its route once it is known). */
  rename(name: string): void;
}

export interface Tracer {
  /** Runs `fn` in a new span, a child of the current one; ends it when `fn` settles, with its error. */
  span<T>(name: string, attributes: SpanAttributes, fn: (span: SpanHandle) => T): T;
  /** Like span(), but only inside a span: a store's poll outside any request or job makes none. */
  child<T>(name: string, fn: () => T): T;
  /** Adds attributes to the current span, if any. */
  annotate(attributes: SpanAttributes): void;
  /** Sends what is buffered and stops (at shutdown). */
  shutdown(): Promise<void>;
}

export const NO_SPAN: SpanHandle = { set() {}, rename() {} };
const NO_TRACER: Tracer = { span: (_name, _attributes, fn) => fn(NO_SPAN), child: (_name, fn) => fn(), annotate() {}, shutdown: async () => {} };

let active: Tracer = NO_TRACER;

/** The relay's one tracer: check `enabled` where building a wrapper would cost something. */
export const tracing = {
  get enabled(): boolean {
    return active !== NO_TRACER;
  },
  span<T>(name: string, attributes: SpanAttributes, fn: (span: SpanHandle) => T): T {
    return active.span(name, attributes, fn);
  },
  child<T>(name: string, fn: () => T): T {
    return active.child(name, fn);
  },
  annotate(attributes: SpanAttributes): void {
    active.annotate(attributes);
  },
  shutdown(): Promise<void> {
    return active.shutdown();
  },
};

/** Installs the tracer otel.ts made (main.ts, before the relay is built). */
export function useTracer(tracer: Tracer): void {
  active = tracer;
}

/** Whether OpenTelemetry's standard variables ask for traces. */
export function tracesWanted(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter) return exporter.split(',').some((e) => e.trim() !== 'none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** `target` with each of its methods run in a span `<prefix>.<method>` (the stores' calls). */
export function tracedMethods<T extends object>(target: T, prefix: string): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return (...args: unknown[]) => tracing.child(`${prefix}.${key}`, () => (value as (...a: unknown[]) => unknown).apply(object, args));
    },
  });
}
