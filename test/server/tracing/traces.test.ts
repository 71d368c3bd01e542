// Traces as an operator turns them on: OpenTelemetry's own variables on a relay process, and a local
// OTLP/HTTP receiver (JSON) in the test. A callback request is one span named after its route, with
// the callback id and the limits' decision, and the store calls and the service request as its
// children; the job that follows the call and the lead event's delivery are spans of their own.
// No span carries the phone number.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../server/simulator/index.ts';
import { listen, type Listening } from '../../support/listen.ts';
import { postCallback } from '../../support/post-callback.ts';
import { relayEnv, startRelay, type RelayProcess } from '../../support/relay-processes.ts';
import { QUICK_CALLS } from '../../support/system.ts';
import { tempDataDir } from '../../support/crash.ts';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Array<{ key: string; value: OtlpValue }>;
}

/** The first value `probe` gives within 20 s (the exporter sends every 50 ms; the job is due 2 s after its call). */
async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const attr = (span: OtlpSpan, key: string) => {
  const v = span.attributes?.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue === undefined ? v?.boolValue : Number(v.intValue));
};

let sim: Awaited<ReturnType<typeof startSimulator>> & { url: string; close(): Promise<void> };
let receiver: Listening;
let crm: Listening;
let relay: RelayProcess;
const bodies: string[] = [];
const spans: OtlpSpan[] = [];

beforeAll(async () => {
  sim = (await startSimulator({ port: 0, host: '127.0.0.1', timing: QUICK_CALLS })) as typeof sim;
  receiver = await listen(
    createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        if (req.url === '/v1/traces') {
          bodies.push(body);
          const parsed = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
          for (const rs of parsed.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    }),
  );
  crm = await listen(createServer((_req, res) => res.writeHead(204).end()));
  relay = await startRelay({
    ...relayEnv(sim, { DATA_DIR: tempDataDir() }),
    LEAD_WEBHOOK_URL: crm.url,
    LEAD_WEBHOOK_SECRET: `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '50',
    CALL_RING_SECONDS: '1', // the job that follows the call looks at the call log 2 s after it was placed
  });
});
afterAll(async () => {
  await relay?.kill('SIGTERM');
  await crm?.close();
  await receiver?.close();
  await sim?.close();
});

describe('traces (OpenTelemetry, OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('a callback is a span with its id and decision, whose children are the store calls and the service request; its job and its lead event are spans too', async () => {
    const answer = await postCallback(relay, { phone: '050 765 43 21', consent: true }, { forwardedFor: '198.51.100.7' });
    expect(answer.status).toBe(202);
    const callbackId = answer.json.requestId!;

    const request = await until(() => spans.find((s) => s.name === 'POST /api/callback'), 'the request span');
    expect(attr(request, 'http.route')).toBe('/api/callback');
    expect(attr(request, 'http.response.status_code')).toBe(202);
    expect(attr(request, 'dialback.callback_id')).toBe(callbackId);
    expect(attr(request, 'dialback.limits')).toBe('admitted');
    expect(attr(request, 'dialback.outcome')).toBe('accepted');

    const children = () => spans.filter((s) => s.parentSpanId === request.spanId);
    await until(() => children().find((s) => s.name === 'calltracking POST /a/v2'), 'the service request span');
    const names = children().map((s) => s.name);
    expect(names).toContain('store.limits.consume');
    expect(names.filter((n) => n.startsWith('store.')).length).toBeGreaterThan(2);
    for (const child of children()) expect(child.traceId).toBe(request.traceId);

    const job = await until(() => spans.find((s) => s.name === 'callback.job' && attr(s, 'dialback.callback_id') === callbackId), 'the job span');
    expect(spans.some((s) => s.parentSpanId === job.spanId && s.name.startsWith('store.jobs.'))).toBe(true);
    // A booking tells the CRM at once (callback.scheduled): its delivery is a span with the event's type.
    const scheduledFor = new Date(Math.ceil((Date.now() + 86_400_000) / 60_000) * 60_000).toISOString();
    const booking = await postCallback(relay, { phone: '050 765 43 22', consent: true, scheduledFor }, { forwardedFor: '198.51.100.8' });
    expect(booking.json.status).toBe('scheduled');
    const delivery = await until(() => spans.find((s) => s.name === 'outbox.deliver' && attr(s, 'dialback.callback_id') === booking.json.requestId), 'the delivery span');
    expect(attr(delivery, 'dialback.event_type')).toBe('callback.scheduled');
    expect(attr(delivery, 'dialback.channel')).toBe('webhook');

    // An idle store poll outside any request or job makes no span of its own.
    expect(spans.filter((s) => s.name.startsWith('store.') && !s.parentSpanId)).toEqual([]);
    // Never the number, in any form.
    const all = bodies.join('\n');
    for (const form of ['38050765432', '50765432', '050 765 43 2', '765 43 2']) expect(all).not.toContain(form);
  });
});
