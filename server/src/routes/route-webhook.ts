// GET/POST/PUT/DELETE /hooks/route/<token>: the service's routing webhook. We answer a free agent
// (online and not speaking, taken in turn) or ROUTE_FALLBACK, never waiting on the SIP status more
// than ROUTE_STATUS_WAIT_MS, since the service skips to its next step after ~3 s. The URL is the only
// secret: why the route answers as it does, routes/README.md.
import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../app/app-context.ts';
import type { AgentSnapshot } from '../calltracking/agent-status.ts';
import { RelayError } from '../contract/errors.ts';
import { readBodyText } from '../http/body.ts';
import type { Reply } from '../http/reply.ts';
import type { Handler, PathMatcher } from '../http/router.ts';
import { secretMatcher } from '../lib/secret-match.ts';
import type { RouteModule } from './index.ts';
import { oneLine } from '../visitor-text/one-line.ts';

const ROUTE_BODY_LIMIT_BYTES = 16 * 1024;
const ROUTE_PREFIX = '/hooks/route/';

/**
 * The path `<prefix><secret>` and nothing else, comparing the secret in constant time (hashes of
 * equal length, then timingSafeEqual), so neither the router nor response timing tells a guesser
 * how much of a token was right. Named `<prefix>[token]` in metrics.
 */
export function secretPath(prefix: string, secret: string): PathMatcher {
  const matches = secretMatcher(secret);
  return {
    match: (pathname) => (pathname.startsWith(prefix) && matches(pathname.slice(prefix.length)) ? {} : null),
    label: `${prefix}[token]`,
  };
}

/** Free agents in turn: the next login after the one answered last, in a stable (sorted) order. */
export function createRoundRobin() {
  let last: string | null = null;
  return {
    pick(free: readonly string[]): string | null {
      if (free.length === 0) return null;
      const sorted = [...free].sort();
      const next = (last === null ? undefined : sorted.find((login) => login > last!)) ?? sorted[0]!;
      last = next;
      return next;
    },
  };
}

/** Reads and discards the webhook's parameters, up to the limit; returns the call id if one was sent. */
async function readParameters(req: IncomingMessage, url: URL): Promise<{ callId: string | null }> {
  const text = await readBodyText(req, ROUTE_BODY_LIMIT_BYTES);
  // Parameters arrive as JSON (JSON submission), a form body or the query (HTTP submission). We only
  // need them for the log; a body we cannot read must not cost the caller their call.
  let callId: unknown = url.searchParams.get('call_id');
  if (text.trim().startsWith('{')) {
    try {
      callId = (JSON.parse(text) as Record<string, unknown>).call_id ?? callId;
    } catch {
      /* logged as a call without id */
    }
  } else if (text) {
    callId = new URLSearchParams(text).get('call_id') ?? callId;
  }
  // Logged: one clean line (visitor-text/), whoever holds the token.
  return { callId: typeof callId === 'string' || typeof callId === 'number' ? oneLine(String(callId), 80) : null };
}

function routeWebhook(app: AppContext): Handler {
  const { route } = app.config;
  const turns = createRoundRobin();

  /** The agent status, but never later than statusWaitMs: then the last good one (or none). */
  async function agentsWithin(waitMs: number): Promise<{ snapshot: AgentSnapshot | null; late: boolean }> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), waitMs);
    });
    try {
      const first = await Promise.race([app.agents.get(), late]);
      if (first === 'late') return { snapshot: app.agents.lastKnown(), late: true };
      // "unknown" means the service never answered: there is no last good status either.
      return { snapshot: first.source === 'unknown' ? null : first, late: false };
    } finally {
      clearTimeout(timer);
    }
  }

  function answer(destination: string): Reply {
    const headers = { 'cache-control': 'no-store' };
    if (route.reply === 'text') return { status: 200, body: destination, headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' } };
    return { status: 200, body: { [route.destinationField]: destination }, headers };
  }

  return async (rc) => {
    const { callId } = await readParameters(rc.req, rc.url);
    const { snapshot, late } = await agentsWithin(route.statusWaitMs);
    const agent = snapshot ? turns.pick(snapshot.free) : null;
    const destination = agent ?? route.fallback;
    rc.log.info('route webhook', {
      callId,
      method: rc.req.method,
      answer: agent ? 'agent' : destination ? 'fallback' : 'none',
      agent,
      statusSource: late ? 'late' : (snapshot?.source ?? 'unknown'),
    });
    if (!destination) {
      // Not 200, so the service skips to the scheme's next step (assume, facts) instead of dialing nothing.
      throw new RelayError('temporarily_unavailable', 'No agent is free and no ROUTE_FALLBACK is set.');
    }
    return answer(destination);
  };
}

/** No route when ROUTE_WEBHOOK_TOKEN is unset (the path then does not exist). The caller is the service, not a browser: no origin rule. */
export const routeWebhookRoutes: RouteModule = (app) => {
  if (!app.config.route.token) return [];
  const handler = routeWebhook(app);
  return [{ path: secretPath(ROUTE_PREFIX, app.config.route.token), origin: 'none', methods: { GET: handler, POST: handler, PUT: handler, DELETE: handler } }];
};

/** `/hooks/route/<anything>` → `/hooks/route/[token]`, for logs: right or wrong, a token is not logged. */
export function redactWebhookToken(pathname: string): string {
  return pathname.startsWith(ROUTE_PREFIX) ? `${ROUTE_PREFIX}[token]` : pathname;
}
