// The callback limiter: per number, client, network, number prefix and site (plan.ts), all checked and
// counted in one atomic step of the store, so a refused request counts against nothing and every
// refusal says how long to wait. Around it: the site breaker, strikes for refusals, the surge defence,
// and a number refused by its own counts held refused in memory for a moment (held-refusals.ts).
// Why: limits/README.md.
import type { Logger } from '../log/index.ts';
import type { RelayMetrics } from '../metrics/relay-metrics.ts';
import { CountsOnly, forgettingOnRefund, NumberAdmission, type Admission } from './admission.ts';
import { createLimitKeys } from './keys.ts';
import { createLimitPlan, type AdmitInput, type ClientKeys } from './plan.ts';
import { LimitRefusalError, worstOf } from './refusal.ts';
import type { LimitDecision, LimitStore, Refusal } from './limit-store.ts';
import type { LimitSettings } from '../config/limits.ts';
import type { SharedState } from '../shared-state/shared-state.ts';
import { createSiteBreaker } from './site-breaker.ts';
import { createStrikes } from './strikes.ts';
import { createSurge } from './surge.ts';
import { HeldRefusals } from './held-refusals.ts';

export interface Limiter {
  /** Counts the request or throws rate_limited / temporarily_unavailable. */
  admit(input: AdmitInput): Promise<Admission>;
  /**
   * Read-only and O(1): the refusal a request from this client would meet whatever it asked for
   * (its address or IPv6 /64, or one of its networks, is over its rate or daily limit, or has
   * collected too many refusals), or null. Counts nothing, not even in /metrics: the caller
   * counts the refusal it makes of it.
   */
  blockedClient(clientIp: string): Promise<Refusal | null>;
  /** Whether the site surges now (surge.ts): the CAPTCHA is then required for everyone. */
  surging(site: string): Promise<boolean>;
  /**
   * A strike taken up front for a check that costs us per try (the CAPTCHA): throws rate_limited
   * when the client or a network of it is at its strike limit; `refund` when the check passed.
   */
  chargeStrike(clientIp: string): Promise<{ refund(): Promise<void> }>;
  /** Read-only: what the number's own limits (cooldown, daily) would refuse now; [] when nothing. For a visitor's data on request. */
  numberHolds(digits: string): Promise<Refusal[]>;
  /**
   * Read-only, from memory, no store asked: the refusal a call now to this number met moments ago by
   * its own counts (held at most 3 s, never past its wait), with the wait left, or null. A caller
   * that answers with it reports it with `refusedHeld`.
   */
  heldNumber(digits: string): Refusal | null;
  /** A refusal made of `heldNumber`: counted in /metrics, and a strike against the client (sent, not waited for). */
  refusedHeld(clientIp: string, refusal: Refusal): void;
  /**
   * Forgets what this process remembers of a number (an erased number): the keyed hashes of it and
   * its prefix (remembered by the digits) and a refusal held for it. Its counts in the store stay
   * (docs/data-at-rest.md). Answers how many entries went.
   */
  forgetNumber(digits: string): number;
}

export interface LimiterDeps {
  settings: LimitSettings;
  store: LimitStore;
  hashSecret: string;
  log: Logger;
  metrics: RelayMetrics;
  /** How long an in-flight slot may be held at worst (a lost release must not block a number forever). */
  inFlightTtlMs: number;
  now?: () => number;
  /** Several relays (Redis): the site breaker's open state and its one ALERT line are shared. */
  shared?: SharedState;
}

/** What refuses a number whoever asks for it: its own counts. */
const numberReasons: ReadonlySet<Refusal['reason']> = new Set(['number_cooldown', 'number_daily']);

export function createLimiter(deps: LimiterDeps): Limiter {
  const { settings: s, store, log, metrics } = deps;
  const now = deps.now ?? Date.now;
  const keys = createLimitKeys(deps.hashSecret);
  const plan = createLimitPlan(s, keys);
  const breaker = createSiteBreaker(s, log, metrics, deps.shared);
  const strikes = createStrikes(store, plan, () => metrics.limiterStrikesLost.inc());
  const surge = createSurge(s.surge, store, keys, log);
  const refusedNumbers = new HeldRefusals();

  metrics.registry.onCollect(() => {
    for (const [table, size] of Object.entries(store.sizes())) metrics.limiterKeys.set(size, { table });
  });

  /** A refusal answered to a visitor: counted in /metrics, and a strike against who asked. */
  function counted(k: ClientKeys, refusal: Refusal, at: number): void {
    metrics.limiterRefusals.inc({ reason: refusal.reason });
    // The answer does not wait for the strike: a strike only brings a block closer (one the store
    // could not take only delays it), and it is sent before this refusal is answered, so this
    // client's next look at its strikes, on the same store connection, comes after it. With Redis
    // that is one round trip less for every refused request of a flood.
    strikes.record(k, refusal.reason, at).catch(() => undefined);
  }

  function refuse(k: ClientKeys, refusal: Refusal, at: number): never {
    counted(k, refusal, at);
    throw new LimitRefusalError(refusal);
  }

  return {
    async admit(input) {
      const part = input.part ?? 'all';
      const numberKey = plan.numberKey(input.digits);
      const k = plan.keysOf(input.clientIp);
      const at = now();
      // A held call placed later ('destination') is no visitor's new try: no surge check, no strike.
      const visitorAsks = part !== 'destination';
      const refuseNow = (refusal: Refusal): Promise<never> => {
        if (visitorAsks) return refuse(k, refusal, at);
        metrics.limiterRefusals.inc({ reason: refusal.reason });
        return Promise.reject(new LimitRefusalError(refusal));
      };
      // A call now to a number refused moments ago (a booking is not held by the number's counts).
      const held = part === 'all' ? refusedNumbers.get(numberKey, at) : null;
      if (held) return refuseNow(held);
      if (visitorAsks) {
        const surged = await surge.refusalFor(input.site, input.clientIp, at);
        if (surged) return refuseNow(surged);
      }
      // Only a call placed now holds its number in flight.
      const holdsNumber = part !== 'visitor';
      if (holdsNumber && !(await store.acquire(numberKey, s.numberInFlight, deps.inFlightTtlMs, at))) {
        return refuseNow({ reason: 'number_in_flight', retryAfter: Math.max(1, Math.ceil(deps.inFlightTtlMs / 2000)) });
      }
      const releaseNumber = () => (holdsNumber ? store.release(numberKey) : Promise.resolve());
      let decision: LimitDecision;
      try {
        decision = await store.consume(plan.admitChecks(input, numberKey, k), at);
      } catch (err) {
        await releaseNumber();
        throw err;
      }
      if (!decision.ok) {
        await releaseNumber();
        const byNumber = decision.refusals.filter((r) => numberReasons.has(r.reason));
        if (byNumber.length > 0) refusedNumbers.hold([numberKey], worstOf(byNumber), at);
        if (holdsNumber) breaker.refused(input.site, decision.refusals);
        return refuseNow(worstOf(decision.refusals));
      }
      if (holdsNumber) breaker.admitted(input.site);
      // Not given back by a refund: a call that never reached the service is rare, and counting
      // it towards a surge only makes the defence start a little earlier.
      if (visitorAsks) await surge.record(input.site, input.clientIp, at);
      if (!holdsNumber) return new CountsOnly(store, decision.receipt);
      return forgettingOnRefund(new NumberAdmission(store, numberKey, decision.receipt), () => refusedNumbers.forget(numberKey));
    },

    numberHolds: (digits) => store.peek(plan.numberCheck(digits), now()),

    heldNumber: (digits) => refusedNumbers.get(plan.numberKey(digits), now()),

    refusedHeld: (clientIp, refusal) => counted(plan.keysOf(clientIp), refusal, now()),

    forgetNumber(digits) {
      refusedNumbers.forget(plan.numberKey(digits));
      return plan.forgetNumber(digits);
    },

    async blockedClient(clientIp) {
      const k = plan.keysOf(clientIp);
      const at = now();
      // From the store's copy of the blocked subjects when it has one fresh (Redis): no round trip.
      const copied = store.blockedNow?.(plan.lookChecks(k), at);
      if (copied) return copied.length === 0 ? null : worstOf(copied);
      // All at once: with Redis, one pipelined round trip instead of one per check.
      const found = await Promise.all([...plan.blockingChecks(k).map((check) => store.peek(check, at)), strikes.reached(k, at)]);
      const refusals = found.flat();
      return refusals.length === 0 ? null : worstOf(refusals);
    },

    surging(site) {
      return surge.active(site, now());
    },

    async chargeStrike(clientIp) {
      const charge = await strikes.charge(plan.keysOf(clientIp), now());
      if (charge.ok) return charge;
      const worst = worstOf(charge.refusals);
      metrics.limiterRefusals.inc({ reason: worst.reason });
      throw new LimitRefusalError(worst);
    },
  };
}
