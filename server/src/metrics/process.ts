// Node's own process metrics from prom-client's defaults: CPU, resident memory and heap, event-loop
// lag, GC pauses, open handles, the Node version. They describe the process, not one relay, so one
// registry per process holds them (tests build many relays in one process); each relay's /metrics
// renders it after its own metrics. Started with the first relay: event-loop lag and GC are
// observed continuously, not only when Prometheus scrapes.
import { collectDefaultMetrics, Registry } from 'prom-client';

let shared: Registry | undefined;

export function processMetrics(): Registry {
  if (!shared) {
    shared = new Registry();
    collectDefaultMetrics({ register: shared });
  }
  return shared;
}
