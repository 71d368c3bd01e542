// The blocked copy (blocked-copy.ts) in /metrics. A copy that stops being fresh costs nothing in
// safety (every look asks Redis again) but brings back a Redis round trip per request, so its age
// is worth a graph:
//   dialback_limiter_blocked_copy_age_seconds   since its last answered poll was sent (~0.1 s; over 1 s it is not used)
//   dialback_limiter_blocked_subjects           client, network and strike records refusing now, as the copy has them
import { Gauge, type Registry } from 'prom-client';
import type { BlockedCopy } from './blocked-copy.ts';

export function reportBlockedCopy(copy: BlockedCopy, registry: Registry): void {
  new Gauge({
    name: 'dialback_limiter_blocked_copy_age_seconds',
    help: 'Age of this relay’s copy of the blocked subjects (the look before a request’s body uses it up to 1 s; +Inf before its first poll)',
    registers: [registry],
    collect() {
      this.set(copy.age() / 1000);
    },
  });
  new Gauge({
    name: 'dialback_limiter_blocked_subjects',
    help: 'Client, network and strike records refusing now, as this relay’s copy of the blocked subjects has them',
    registers: [registry],
    collect() {
      this.set(copy.size);
    },
  });
}
