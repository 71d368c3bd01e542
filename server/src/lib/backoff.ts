// Capped exponential backoff with jitter, for anything retried against a service that may be down:
// base·2^(attempt−1), capped at max, then spread over [½, 1]× so relays that failed together do
// not retry together.
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const full = Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
  return Math.round(full / 2 + (full / 2) * random());
}
