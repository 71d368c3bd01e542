// Shared by the held-call tests: one clock for the relay and the simulator (calls are dated by it,
// so the call log and the relay agree), runner timers that fire only when a test moves the clock,
// held jobs as the request path stores them, a CRM that verifies the signed lead webhook with the
// Standard Webhooks package, and a gate in front of the simulator that can refuse connections
// (the service down) and open again on the same port.
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { RunnerTimers } from '../../server/src/callback/steps/job-runner.ts';
import { listen, type Listening } from './listen.ts';
import { ORIGIN } from './post-callback.ts';
import { afterEach } from 'vitest';
import { QUICK_CALLS, startSystem, type System, type SystemOptions } from './system.ts';

export { ORIGIN };
import { HASH_SECRET } from './held-job.ts';

export { HASH_SECRET };
export { heldJobFor } from './held-job.ts';
export const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;

/** The relay's and the simulator's clock; tests move it. */
export function testClock(start: Date) {
  const clock = {
    ms: start.getTime(),
    now: () => new Date(clock.ms),
    set(at: Date | number) {
      clock.ms = typeof at === 'number' ? at : at.getTime();
    },
    advance(ms: number) {
      clock.ms += ms;
    },
  };
  return clock;
}
export type TestClock = ReturnType<typeof testClock>;

/** Runner timers that fire only from fire(): the runner never runs behind a test's back. */
export function manualTimers(clock: TestClock) {
  let next = 1;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: RunnerTimers & { pending: typeof pending; fire(): number } = {
    pending,
    setTimeout(fn, ms) {
      const id = next++;
      pending.set(id, { at: clock.ms + ms, fn });
      return id;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
    /** Runs every timer due by the clock; returns how many. */
    fire() {
      const due = [...pending].filter(([, t]) => t.at <= clock.ms);
      for (const [id, t] of due) {
        pending.delete(id);
        t.fn();
      }
      return due.length;
    },
  };
  return timers;
}

/** The settings every held-call system shares (env strings, as an operator writes them). */
export const HELD_ENV = { ALLOWED_ORIGINS: ORIGIN, HASH_SECRET, CALL_RING_SECONDS: '10', LIMIT_CLIENT_NUMBERS_DAILY: '32', LIMIT_CLIENT_RATE: '50' };

/** The call the kill -9 child (test/support/fixtures/held-relay-child.ts) holds. */
export const CHILD_PHONE = '+380509876543';
export const CHILD_CALLBACK_ID = '5b0d2b8e-3c1f-4c55-9d9e-1f1a2b3c4d5e';

/** The calls the service actually made to `e164` (its call log), oldest first. */
export const callsTo = (s: Pick<System, 'sim'>, e164: string) => s.sim.calls.filter((c) => c.caller === e164.replace('+', ''));

/** Waits (briefly, in real time) for the simulator's own timers: a call ringing out in QUICK_CALLS. */
export async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Every call to `e164` has ended (its row is final). */
export const callsSettled = (s: Pick<System, 'sim'>, e164: string) => until(() => callsTo(s, e164).every((c) => c.disposition !== 'IN PROGRESS'), 'the calls to end');

export interface Crm extends Listening {
  events: Array<{ type: string; data: Record<string, unknown> }>;
  ids: string[];
}

/** A CRM on 127.0.0.1 that keeps every delivery it verifies with the Standard Webhooks package. */
export async function startCrm(clock: TestClock): Promise<Crm> {
  const events: Crm['events'] = [];
  const ids: string[] = [];
  const verifier = new Webhook(SECRET);
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      // The relay signs with the test's clock; the verifier checks freshness against Date.now.
      const wallClock = Date.now;
      Date.now = () => clock.ms;
      try {
        events.push(verifier.verify(body, req.headers as Record<string, string>) as Crm['events'][number]);
        ids.push(String(req.headers['webhook-id']));
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end();
      } finally {
        Date.now = wallClock;
      }
    });
  });
  return Object.assign(await listen(server), { events, ids });
}

/** Lead events delivered so far: the delivery worker runs on the relay's timers, so ask it to deliver now. */
export async function delivered(s: System, crm: Crm, count: number) {
  await s.relay.app.delivery!.runOnce();
  return until(() => crm.events.length >= count && crm.events, `${count} lead events`);
}

/** A TCP gate in front of the simulator: down() refuses connections on its port, up() opens it again. */
export async function startGate() {
  let target = 0;
  let server: Server | null = null;
  const sockets = new Set<Socket>();
  const open = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(target, '127.0.0.1');
        sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const end = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server!.address() as AddressInfo).port));
    });
  const port = await open(0);
  const gate = {
    url: `http://127.0.0.1:${port}`,
    set target(url: string) {
      target = Number(new URL(url).port);
    },
    async down() {
      const s = server;
      server = null;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async up() {
      if (!server) await open(port);
    },
  };
  return gate;
}

/**
 * The held-call tests' fixture: one relay per test with its simulator, its clock and its job runner
 * on a test clock that starts at `at`, and the lead webhook's receiver (a CRM) unless `webhook` is
 * false; both closed after each test, and the clock set back to `at`.
 */
export function heldRelayPerTest(at: Date) {
  const clock = testClock(at);
  let current: { s: System; crm: Crm | undefined } | undefined;
  afterEach(async () => {
    await current?.s.close();
    await current?.crm?.close();
    current = undefined;
    clock.set(at);
  });
  return {
    clock,
    async start(env: Record<string, string> = {}, options: { webhook?: boolean; runner?: SystemOptions['runner']; simulator?: SystemOptions['simulator'] } = {}): Promise<System> {
      const crm = options.webhook === false ? undefined : await startCrm(clock);
      const s = await startSystem(
        { ...HELD_ENV, ...(crm && { LEAD_WEBHOOK_URL: crm.url, LEAD_WEBHOOK_SECRET: SECRET }), ...env },
        { simulator: { timing: QUICK_CALLS, ...options.simulator, now: clock.now }, now: clock.now, runner: options.runner ?? { timers: manualTimers(clock) } },
      );
      current = { s, crm };
      return s;
    },
    /** The current test's CRM. */
    crm(): Crm {
      if (!current?.crm) throw new Error('this test started its relay without a lead webhook');
      return current.crm;
    },
  };
}
