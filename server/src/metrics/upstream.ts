// Feeds the service round trips into the upstream latency histogram. Operations are named from a
// closed list, so a path can never become a label value.
import type { UpstreamEvent } from '../calltracking/transport.ts';
import type { RelayMetrics } from './relay-metrics.ts';

function operation(path: string): string {
  if (path === '/a/v2') return 'callback';
  if (path.startsWith('/sipstatus/')) return 'sipstatus';
  if (path.startsWith('/calls/')) return 'calls';
  if (path.startsWith('/callback/')) return 'outward_call';
  return 'other';
}

export function observeUpstream(metrics: RelayMetrics): (event: UpstreamEvent) => void {
  return (event) => metrics.upstreamSeconds.observe(event.seconds, { operation: operation(event.path), outcome: event.outcome });
}
