// The relay's metric families, created once per relay (tests build many relays, so nothing here is
// global). Label values come from closed sets only: route patterns, status codes, outcome and
// reason names. Never a path, an address or a number. Node's process metrics follow them.
import { processMetrics } from './process.ts';
import { createRegistry, type Counter, type Gauge, type Histogram, type Registry } from './registry.ts';

/** Seconds; the service normally answers in 0.1–1 s and UPSTREAM_TIMEOUT_MS caps it (8 s default). */
const UPSTREAM_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 30];

export interface RelayMetrics {
  registry: Registry;
  requests: Counter;
  upstreamSeconds: Histogram;
  callbacks: Counter;
  /** Calls held for later (scheduled, queued, redial), by kind and what became of them. */
  heldCalls: Counter;
  limiterRefusals: Counter;
  /** Strikes the limit store could not take (sent without waiting, so no request fails for them): each only delays a block. */
  limiterStrikesLost: Counter;
  /** Lead-webhook attempts by outcome (delivered, retry, gave_up): retries without deliveries mean the CRM is not hearing of leads. */
  webhookDeliveries: Counter;
  breakerOpen: Gauge;
  limiterKeys: Gauge;
  idempotencyKeys: Gauge;
  openConnections: Gauge;
  ready: Gauge;
}

export function createRelayMetrics(): RelayMetrics {
  const registry = createRegistry();
  registry.append(processMetrics());
  return {
    registry,
    requests: registry.counter('dialback_http_requests_total', 'HTTP requests answered, by route pattern, method and status.', ['route', 'method', 'status']),
    upstreamSeconds: registry.histogram(
      'dialback_upstream_request_duration_seconds',
      'Time the call-tracking service took, by operation and outcome (ok, rejected, unavailable, timeout, unknown).',
      UPSTREAM_BUCKETS,
      ['operation', 'outcome'],
    ),
    callbacks: registry.counter('dialback_callbacks_total', 'Callback requests that reached the service, by outcome.', ['outcome']),
    heldCalls: registry.counter(
      'dialback_held_calls_total',
      'Steps of the calls the relay keeps after the request (booked, held, followed, re-dialled), by the stage they were in (kind) and what came of the step (outcome).',
      ['kind', 'outcome'],
    ),
    limiterRefusals: registry.counter('dialback_limiter_refusals_total', 'Callback requests refused by a limit, by reason.', ['reason']),
    limiterStrikesLost: registry.counter(
      'dialback_limiter_strikes_lost_total',
      'Strikes (refusals counted against a client and its networks) the limit store could not take; each only delays a block.',
    ),
    webhookDeliveries: registry.counter('dialback_webhook_deliveries_total', 'Lead-webhook delivery attempts, by outcome (delivered, retry, gave_up).', ['outcome']),
    breakerOpen: registry.gauge('dialback_breaker_open', 'Site-wide cap breaker: 1 while open (callbacks refused), by window.', ['window']),
    limiterKeys: registry.gauge('dialback_limiter_keys', 'Keys held by the memory limit store, by table.', ['table']),
    idempotencyKeys: registry.gauge('dialback_idempotency_keys', 'Idempotency keys held in memory.'),
    openConnections: registry.gauge('dialback_open_connections', 'Client connections open now.'),
    ready: registry.gauge('dialback_ready', '1 when the relay can take callbacks (as /readyz): the shared store takes writes and the last probe of the service succeeded.'),
  };
}
