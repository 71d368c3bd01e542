// The relay's router: exact paths, patterns with named groups, or matchers, one handler per method.
// Each route also declares what the relay checks before its handler runs (its `origin` rule, its
// `access`), so no handler checks it again; until a protected route may be known, every method and
// sub-path answers the unknown path's 404, never 405. The declarations: http/README.md.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RelayError } from '../contract/errors.ts';
import type { Fields, Logger } from '../log/index.ts';
import type { Reply } from './reply.ts';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  /** The HTTP request's id (x-request-id, log lines). A callback has its own callbackId. */
  requestId: string;
  /** The request's Origin as the allowlist writes it, or null when it sent none (routes with origin 'none': always null). */
  origin: string | null;
  clientIp: string;
  log: Logger;
  /**
   * Fields a handler adds to the request's own log line (the relay's one 'request' line), instead
   * of writing a line of its own. method, path, status and ms stay the relay's.
   */
  logFields?: Fields;
  /**
   * Whether, under a flood, this request's line may share a summary line (log/repeat-lines.ts).
   * Unset: yes for client errors and refusals, no otherwise. true: a cheap answer that says nothing
   * new when repeated (status, widget files). false: a line worth keeping each time.
   */
  repeatable?: boolean;
  /**
   * Under a flood, lines of one kind that differ in these fields (the masked number a refusal
   * names) are summed up apart, and each summary names them: the first line of each is written.
   */
  repeatPer?: Readonly<Record<string, string>>;
}

export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS' | 'PATCH';
export type OriginRule = 'required' | 'optional' | 'none';

/** A path no pattern can state (one holding a secret, say): `match` decides, `label` names it in metrics. */
export interface PathMatcher {
  match(pathname: string): Record<string, string> | null;
  label: string;
}

export interface Route {
  path: string | RegExp | PathMatcher;
  origin: OriginRule;
  /** Token-protected routes: false answers the unknown path's 404 for every method. It may add to the request's log line (logFields). */
  access?: (ctx: RequestContext) => boolean | Promise<boolean>;
  methods: Partial<Record<Method, Handler>>;
}

export interface RouteMatch {
  /** null: no route has this path. */
  route: Route | null;
  params: Record<string, string>;
  /** The route's name for metrics: its path, its pattern's source, or 'unmatched'. Never the requested path. */
  label: string;
}

const routeLabel = (route: Route) => (typeof route.path === 'string' ? route.path : route.path instanceof RegExp ? route.path.source : route.path.label);
const noParams: Record<string, string> = Object.freeze({}) as Record<string, string>;
/** No route: an unknown path's match, and a target refused before routing. */
export const UNMATCHED: RouteMatch = Object.freeze({ route: null, params: noParams, label: 'unmatched' });

export function createRouter(routes: readonly Route[]) {
  const labels = new Map(routes.map((route) => [route, routeLabel(route)]));
  return {
    /** The route for `pathname`, found once per request, the metric label with it. */
    match(pathname: string): RouteMatch {
      for (const route of routes) {
        let params: Record<string, string> | null = null;
        if (typeof route.path === 'string') {
          if (route.path === pathname) params = noParams;
        } else if (route.path instanceof RegExp) {
          const found = route.path.exec(pathname);
          if (found) params = found.groups ? { ...found.groups } : noParams;
        } else {
          params = route.path.match(pathname);
        }
        if (params) return { route, params, label: labels.get(route)! };
      }
      return UNMATCHED;
    },
  };
}

/** The handler of `route` for `method`, or throws 405 with Allow. */
export function handlerFor(route: Route, method: string): Handler {
  const handler = route.methods[(method === 'HEAD' ? 'GET' : method) as Method];
  if (handler) return handler;
  const allow = Object.keys(route.methods).join(', ');
  throw new RelayError('method_not_allowed', `${method.length > 20 ? method.slice(0, 20) : method} is not supported here; use ${allow}.`, { headers: { allow } });
}

/** The one answer for a path that does not exist, or that a request may not know exists. */
export function notFound(pathname: string): RelayError {
  return new RelayError('not_found', `Nothing is served at ${pathname.length > 100 ? pathname.slice(0, 100) + '…' : pathname}.`);
}
