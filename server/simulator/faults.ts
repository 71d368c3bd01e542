// Fault switches: break the service on purpose so the relay's error handling can be tested.
// A fault is looked up by the endpoint's target first, then '*'. Faulted requests are still recorded.
import type { ServerResponse } from 'node:http';
import { RPC } from './assumptions.ts';
import { json, send, text, type Reply } from './http-kit.ts';
import type { Timers } from './timers.ts';
import type { Fault, FaultSwitches, FaultTarget } from './types.ts';

const FAULT_TARGETS: readonly FaultTarget[] = ['callback', 'outward_call', 'sipstatus', 'calls', '*'];
const FAULT_KINDS = ['reset', 'hang', 'status', 'html', 'truncated', 'rpc_error', 'delay'] as const;

export interface FaultBoard extends FaultSwitches {
  /** The fault to apply to this request (consuming one of its `times`), or null. */
  take(target: Exclude<FaultTarget, '*'>): Fault | null;
}

function checkTarget(target: unknown): asserts target is FaultTarget {
  if (!FAULT_TARGETS.includes(target as FaultTarget)) throw new Error(`unknown fault target ${JSON.stringify(target)}; use one of ${FAULT_TARGETS.join(', ')}`);
}

/** Throws a clear error for a malformed fault, so a test typo does not silently test nothing. */
function checkFault(target: unknown, fault: unknown): asserts fault is Fault {
  checkTarget(target);
  const f = fault as Partial<Record<string, unknown>> | null;
  if (!f || typeof f !== 'object' || !FAULT_KINDS.includes(f.kind as (typeof FAULT_KINDS)[number])) {
    throw new Error(`unknown fault kind; use one of ${FAULT_KINDS.join(', ')}`);
  }
  if (f.times !== undefined && !(Number.isInteger(f.times) && (f.times as number) > 0)) throw new Error('fault.times must be a positive integer');
  if (f.kind === 'status' && !(Number.isInteger(f.status) && (f.status as number) >= 400 && (f.status as number) <= 599)) {
    throw new Error('fault.status must be an HTTP status 400..599');
  }
  if (f.kind === 'delay' && !(typeof f.ms === 'number' && f.ms >= 0 && Number.isFinite(f.ms))) throw new Error('fault.ms must be a non-negative number');
}

/** An active fault and, when it was set with `times`, how many requests it still applies to. */
interface ActiveFault {
  fault: Fault;
  left?: number;
}

export function createFaultBoard(): FaultBoard {
  const active = new Map<FaultTarget, ActiveFault>();
  return {
    set(target, fault) {
      checkFault(target, fault);
      active.set(target, { fault: { ...fault }, left: fault.times });
    },
    clear(target) {
      if (target === undefined) return active.clear();
      // A misspelt target would otherwise clear nothing and leave the fault on without a word.
      checkTarget(target);
      active.delete(target);
    },
    list() {
      const out: Partial<Record<FaultTarget, Fault>> = {};
      for (const [target, { fault }] of active) out[target] = { ...fault };
      return out;
    },
    take(target) {
      const key = active.has(target) ? target : '*';
      const entry = active.get(key);
      if (!entry) return null;
      if (entry.left !== undefined) {
        entry.left -= 1;
        if (entry.left <= 0) active.delete(key);
      }
      return { ...entry.fault };
    },
  };
}

/** What a cut-off answer starts like when the service never produced a real one. */
const TRUNCATED_PREFIX: Record<Exclude<FaultTarget, '*'>, string> = {
  callback: '{"jsonrpc":"2.0","id":',
  outward_call: '{"status":"o',
  sipstatus: '["manag',
  calls: '[{"calldate":"2019-06-0',
};

const MAINTENANCE_PAGE =
  '<!doctype html><html><head><title>Technical works</title></head><body><h1>Service is temporarily unavailable</h1><p>We are performing maintenance.</p></body></html>';

export interface FaultContext {
  res: ServerResponse;
  target: Exclude<FaultTarget, '*'>;
  /** JSON-RPC id of the request, for rpc_error (null when unknown). */
  rpcId: number | string | null;
  /** Runs the real handler (side effects included) and gives its reply. */
  run: () => Promise<Reply>;
  timers: Timers;
  /** Responses left hanging, so close() can end them. */
  hanging: Set<ServerResponse>;
}

export async function applyFault(fault: Fault, ctx: FaultContext): Promise<void> {
  const { res } = ctx;
  const reply: Reply | null = fault.handled ? await ctx.run() : null;

  switch (fault.kind) {
    case 'reset':
      res.socket?.destroy();
      return;
    case 'hang':
      ctx.hanging.add(res);
      res.on('close', () => ctx.hanging.delete(res));
      return;
    case 'status': {
      const out = text(fault.status, fault.body ?? `${fault.status} simulated fault`);
      if (fault.retryAfter !== undefined) out.headers['retry-after'] = String(fault.retryAfter);
      send(res, out);
      return;
    }
    case 'html':
      send(res, text(200, MAINTENANCE_PAGE, 'text/html; charset=utf-8'));
      return;
    case 'truncated': {
      const body = reply ? reply.body.slice(0, Math.floor(reply.body.length / 2)) : TRUNCATED_PREFIX[ctx.target];
      send(res, text(200, body, 'application/json; charset=utf-8'));
      return;
    }
    case 'rpc_error':
      send(res, json(200, { jsonrpc: '2.0', id: ctx.rpcId, error: { code: fault.code ?? RPC.internal.code, message: fault.message ?? 'Internal error' } }));
      return;
    case 'delay': {
      // Without `handled` the service is slow before acting: the work happens when the delay ends,
      // even if the client gave up meanwhile (a server rarely notices), but not after close().
      ctx.timers.after(fault.ms, () => {
        if (reply) return send(res, reply);
        ctx.run().then(
          (r) => send(res, r),
          () => send(res, text(500, 'simulator error')),
        );
      });
      return;
    }
  }
}
