// A refusal counts against no limit, but it is a strike against the client that asked and against
// each of its networks: a client that collects LIMIT_CLIENT_REFUSALS of them in its rate window (a
// bot hammering a number on cooldown, or failing the CAPTCHA), or a network that collects
// LIMIT_NETWORK_REFUSALS (the same bot rotating addresses), is refused outright, before its body
// is read, until the window has room again. Strikes are recorded like accepted requests, in tables
// of their own, so they count against no real limit.
import type { LimitDecision, LimitReason, LimitStore, Refusal } from './limit-store.ts';
import { notTheClients } from './refusal.ts';
import type { ClientKeys, LimitPlan } from './plan.ts';

export type StrikeCharge = { ok: true; refund(): Promise<void> } | { ok: false; refusals: Refusal[] };

/** `lost`: told of each strike the store could not take (a metric), as nothing waits for one. */
export function createStrikes(store: LimitStore, plan: LimitPlan, lost: () => void = () => {}) {
  return {
    /**
     * After a refusal that is the client's doing: one strike against the client and one against
     * each network, each on its own, so a client already at its limit (refused up front from now
     * on) does not keep its network from collecting. A subject at its strike limit records nothing.
     */
    async record(k: ClientKeys, reason: LimitReason, at: number): Promise<void> {
      if (notTheClients(reason)) return;
      // Side by side (with Redis, one pipelined round trip). A strike the store could not take only
      // delays the block; the refusal stands either way, and the loss is counted.
      const taken = (decision: LimitDecision) => {
        // A full store (LIMITER_MAX_KEYS, Redis out of memory) takes no strike either.
        if (!decision.ok && decision.refusals.some((r) => r.reason === 'limiter_full')) lost();
      };
      if (store.strike) {
        // A store that gathers strikes (Redis) answers each one only with whether it had room.
        const roomFor = (room: boolean) => {
          if (!room) lost();
        };
        await Promise.all(plan.strikeChecks(k).map((check) => store.strike!(check, at).then(roomFor, lost)));
        return;
      }
      await Promise.all(plan.strikeChecks(k).map((check) => store.consume([check], at).then(taken, lost)));
    },
    /**
     * Before a check that costs us something per try (a CAPTCHA verification with Cloudflare): the
     * strike is taken up front, all or nothing, and given back when the check passes. A client or
     * network at its strike limit is refused without the check, however many of its requests
     * arrive at once: each one's strike is counted before any of them is verified.
     */
    async charge(k: ClientKeys, at: number): Promise<StrikeCharge> {
      const decision = await store.consume(plan.strikeChecks(k), at);
      // A strike table full of a flood's keys must not refuse every new visitor's check: strikes
      // are a cost, never a limit of their own, so without room the check runs uncharged.
      if (!decision.ok && decision.refusals.every((r) => r.reason === 'limiter_full')) return { ok: true, refund: async () => undefined };
      if (!decision.ok) return decision;
      return { ok: true, refund: () => store.refund(decision.receipt) };
    },
    /** Read-only: the strike limits this client or its networks have reached now. */
    async reached(k: ClientKeys, at: number): Promise<Refusal[]> {
      return (await Promise.all(plan.strikeChecks(k).map((check) => store.peek(check, at)))).flat();
    },
  };
}
