// A small router: exact paths or patterns with named groups, one handler per method. A path that
// exists with another method answers 405 with Allow; an unknown path answers 404. HEAD is served by
// the GET handler (node drops the body).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RelayError } from '../errors.ts';
import type { Fields, Logger } from '../log.ts';
import type { Reply } from './reply.ts';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  requestId: string;
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
}

export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS' | 'PATCH';

/** A path no pattern can state (one holding a secret, say): `match` decides, `label` names it in metrics. */
export interface PathMatcher {
  match(pathname: string): Record<string, string> | null;
  label: string;
}

export interface Route {
  path: string | RegExp | PathMatcher;
  methods: Partial<Record<Method, Handler>>;
}

export interface Match {
  /** For an unknown path or method, a handler that throws the router's 404 or 405. */
  handler: Handler;
  params: Record<string, string>;
  /** The route's name for metrics: its path, its pattern's source, or 'unmatched'. Never the requested path. */
  label: string;
}

const routeLabel = (route: Route) => (typeof route.path === 'string' ? route.path : route.path instanceof RegExp ? route.path.source : route.path.label);
const noParams: Record<string, string> = Object.freeze({}) as Record<string, string>;

export function createRouter(routes: readonly Route[]) {
  return {
    /** The route for `pathname` and its handler for `method`; found once per request, the metric label with it. */
    match(method: string, pathname: string): Match {
      const m = method === 'HEAD' ? 'GET' : method;
      for (const route of routes) {
        let params: Record<string, string> | null = null;
        if (typeof route.path === 'string') {
          if (route.path === pathname) params = {};
        } else if (route.path instanceof RegExp) {
          const found = route.path.exec(pathname);
          if (found) params = { ...found.groups };
        } else {
          params = route.path.match(pathname);
        }
        if (!params) continue;
        const handler = route.methods[m as Method];
        if (handler) return { handler, params, label: routeLabel(route) };
        const allow = Object.keys(route.methods).join(', ');
        const error = new RelayError('method_not_allowed', `${method} is not supported here; use ${allow}.`, { headers: { allow } });
        return { handler: () => Promise.reject(error), params: noParams, label: routeLabel(route) };
      }
      const error = new RelayError('not_found', `Nothing is served at ${pathname.length > 100 ? pathname.slice(0, 100) + '…' : pathname}.`);
      return { handler: () => Promise.reject(error), params: noParams, label: 'unmatched' };
    },
  };
}
