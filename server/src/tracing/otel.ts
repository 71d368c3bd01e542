// OpenTelemetry's Node SDK, configured by its own standard variables (OTEL_EXPORTER_OTLP_ENDPOINT,
// OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER…), imported by main.ts only
// when they ask for traces. The relay's metrics stay Prometheus (/metrics) and its logs stdout, so
// the SDK's own metrics and logs exporters are off unless their variables name one.
import { context, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { SpanAttributes, SpanHandle, Tracer } from './tracing.ts';

export async function startOpenTelemetry(env: NodeJS.ProcessEnv): Promise<Tracer> {
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  env.OTEL_SERVICE_NAME ??= 'dialback-relay';
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK();
  sdk.start();
  const tracer = trace.getTracer('dialback');

  // An error's name and code only: a message may hold a masked number or a URL with a token.
  const end = (span: Span, err?: unknown) => {
    if (err !== undefined) {
      const name = err instanceof Error ? err.name : 'Error';
      const code = (err as { code?: unknown })?.code;
      span.recordException({ name, message: typeof code === 'string' ? code : name });
      span.setStatus({ code: SpanStatusCode.ERROR, message: name });
    }
    span.end();
  };
  const run = <T>(name: string, attributes: SpanAttributes, fn: (span: SpanHandle) => T): T =>
    tracer.startActiveSpan(name, { attributes }, (span) => {
      const handle: SpanHandle = { set: (a) => span.setAttributes(a), rename: (n) => span.updateName(n) };
      let result: T;
      try {
        result = fn(handle);
      } catch (err) {
        end(span, err);
        throw err;
      }
      if (result instanceof Promise) {
        return result.then(
          (value) => {
            end(span);
            return value;
          },
          (err: unknown) => {
            end(span, err);
            throw err;
          },
        ) as T;
      }
      end(span);
      return result;
    });
  return {
    span: run,
    child: (name, fn) => (trace.getSpan(context.active()) ? run(name, {}, () => fn()) : fn()),
    annotate(attributes) {
      trace.getSpan(context.active())?.setAttributes(attributes);
    },
    shutdown: () => sdk.shutdown(),
  };
}
