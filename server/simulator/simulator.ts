// createSimulator builds the whole in-memory service (server not listening); startSimulator also
// listens. One request path: read body -> record -> route -> fault switch or handler -> one reply.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAgentPool } from './agents.ts';
import { DEFAULTS, DEFAULT_TIMING, MAX_BODY_BYTES, defaultVisitorAnswers } from './assumptions.ts';
import type { SimContext, SimRequest } from './context.ts';
import { applyFault, createFaultBoard } from './faults.ts';
import { BodyTooLarge, authorized, readBody, restError, send, text, type Reply } from './http-kit.ts';
import { createLifecycle } from './lifecycle.ts';
import { internationalNumber } from './numbers.ts';
import { projectTime } from './project-time.ts';
import { callsList } from './routes/calls-list.ts';
import { control } from './routes/control.ts';
import { extendedCallback, rpcIdOf } from './routes/extended-callback.ts';
import { outwardCall } from './routes/outward-call.ts';
import { sipStatus } from './routes/sipstatus.ts';
import { createRouter } from './routing.ts';
import { seedRows } from './seed.ts';
import { createTimers } from './timers.ts';
import type { FaultTarget, RecordedRequest, SimCall, Simulator, SimulatorOptions } from './types.ts';

type Target = Exclude<FaultTarget, '*'>;
interface ServiceRoute {
  target: Target;
  /** The endpoint checks the Auth-key itself (JSON-RPC answers 403 in its own error shape). */
  ownAuth?: boolean;
  handle(request: SimRequest): Reply;
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const authKey = options.authKey ?? DEFAULTS.authKey;
  const projectId = options.projectId ?? DEFAULTS.projectId;
  const officeLine = internationalNumber(options.officeLine ?? DEFAULTS.officeLine);
  if (!authKey) throw new Error('simulator: authKey must not be empty');
  if (!officeLine) throw new Error('simulator: officeLine must be a phone number in international format');
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  const timing = { ...DEFAULT_TIMING, ...options.timing };
  for (const [phase, ms] of Object.entries(timing)) {
    if (!(Number.isFinite(ms) && ms >= 0)) throw new Error(`simulator: timing.${phase} must be a non-negative number of ms`);
  }

  const callTimers = createTimers(); // cancelled by reset() and close()
  const replyTimers = createTimers(); // delayed replies: only close() cancels them
  const driftTimers = createTimers();
  const hanging = new Set<ServerResponse>();
  const agents = createAgentPool(options.agents ?? DEFAULTS.agents);
  const calls: SimCall[] = [];
  const requests: RecordedRequest[] = [];
  const faults = createFaultBoard();

  const ctx: SimContext = {
    authKey,
    projectId,
    officeLine,
    time: projectTime(options.timeZone ?? DEFAULTS.timeZone),
    now,
    log,
    agents,
    calls,
    outboundBanPrefixes: options.outboundBanPrefixes ?? DEFAULTS.outboundBanPrefixes,
    lifecycle: createLifecycle({ agents, timers: callTimers, timing, visitorAnswers: options.visitorAnswers ?? defaultVisitorAnswers, log }),
  };
  const routing = createRouter(ctx, options.googleId ?? DEFAULTS.googleId);

  const routes: Record<string, ServiceRoute> = {
    '/calls/list': { target: 'calls', handle: (r) => callsList(ctx, r) },
    '/callback/outward_call': { target: 'outward_call', handle: (r) => outwardCall(ctx, r) },
    '/a/v2': { target: 'callback', ownAuth: true, handle: (r) => extendedCallback(ctx, r) },
    '/sipstatus/online': { target: 'sipstatus', handle: (r) => sipStatus(ctx, r, 'online') },
    '/sipstatus/speaking': { target: 'sipstatus', handle: (r) => sipStatus(ctx, r, 'speaking') },
  };

  const server = createServer((req, res) => {
    // A service's Date header is its own clock's: the relay's pre-flight compares it with its own.
    res.setHeader('date', now().toUTCString());
    handle(req, res).catch((error: unknown) => {
      log({ msg: 'simulator error', error: error instanceof Error ? error.message : String(error) });
      send(res, text(500, 'simulator error'));
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Access log: path without the query (filters may name a caller's number), never headers.
    const started = Date.now();
    res.on('finish', () => log({ msg: 'request', method: req.method, path: (req.url ?? '/').split('?')[0], status: res.statusCode, ms: Date.now() - started }));
    let body = '';
    let tooLarge = false;
    try {
      body = await readBody(req, MAX_BODY_BYTES);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) return void res.destroy();
      tooLarge = true;
    }
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers: { ...req.headers }, body, at: now() });
    if (tooLarge) return send(res, restError(413, `request body over ${MAX_BODY_BYTES} bytes`));

    let url: URL;
    try {
      url = new URL(path, 'http://simulator.invalid');
    } catch {
      return send(res, restError(400, 'malformed request target'));
    }
    const request: SimRequest = { method: req.method ?? 'GET', url, body, raw: req };

    if (url.pathname.startsWith('/__sim/')) {
      if (!authorized(req, authKey)) return send(res, restError(403, 'invalid Auth-key'));
      return send(res, await control(sim, request));
    }
    const route = routes[url.pathname];
    if (!route) return send(res, restError(404, 'not found'));

    const run = async (): Promise<Reply> => {
      if (!route.ownAuth && !authorized(req, authKey)) return restError(403, 'invalid Auth-key');
      return route.handle(request);
    };
    const fault = faults.take(route.target);
    if (fault) {
      log({ msg: 'fault applied', target: route.target, kind: fault.kind });
      const rpcId = route.target === 'callback' ? rpcIdOf(body) : null;
      return applyFault(fault, { res, target: route.target, rpcId, run, timers: replyTimers, hanging });
    }
    send(res, await run());
  }

  if (options.agentDrift) {
    const everyMs = options.agentDrift.everyMs;
    if (!(everyMs >= 100)) throw new Error('simulator: agentDrift.everyMs must be at least 100');
    driftTimers.every(everyMs, () => {
      const list = agents.list();
      const pick = list[Math.floor(Math.random() * list.length)];
      if (!pick) return;
      // Never take the last online agent away: a demo with nobody online looks broken.
      if (pick.online && list.filter((a) => a.online).length <= 1) return;
      agents.setOnline(pick.login, !pick.online);
      log({ msg: 'agent drift', login: pick.login, online: !pick.online });
    });
  }

  const sim: Simulator = {
    server,
    authKey,
    projectId,
    officeLine,
    // Plain references stay live: nothing replaces these arrays (reset empties them in place).
    calls,
    requests,
    faults,
    agents,
    routing,
    seedCalls(count, seedOptions = {}) {
      const rows = seedRows(count, { ...seedOptions, now: now(), officeLine, agents: agents.list() });
      for (const row of rows) calls.push(row);
      return rows;
    },
    reset() {
      callTimers.cancelAll();
      calls.length = 0;
      requests.length = 0;
      faults.clear();
      agents.restore();
    },
    close() {
      callTimers.stop();
      replyTimers.stop();
      driftTimers.stop();
      for (const res of hanging) res.destroy();
      hanging.clear();
      return new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return sim;
}

export async function startSimulator(options: SimulatorOptions & { port?: number; host?: string } = {}): Promise<Simulator & { url: string }> {
  const sim = createSimulator(options);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    sim.server.once('error', reject);
    sim.server.listen(options.port ?? 0, host, () => {
      sim.server.off('error', reject);
      resolve();
    });
  });
  const { port } = sim.server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // Assign onto the same object the control routes hold, not a copy.
  return Object.assign(sim, { url }) as Simulator & { url: string };
}
