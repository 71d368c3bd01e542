// The one 'request' log line each answer gets: method, path, status, why an error answered, time,
// plus what the handler added (RequestContext.logFields). Cheap answers may share their kind's
// summary line under a flood (log/repeat-lines.ts): client errors and refusals (a refusal that names
// a number, one summary per number), and what a route marks repeatable (preflights are); never a
// line a route wants kept, never a server error's.
import type { IncomingMessage } from 'node:http';
import type { ErrorBody } from '../contract/contract.ts';
import type { Fields, Logger } from '../log/index.ts';
import type { RepeatLines } from '../log/repeat-lines.ts';
import type { Reply } from './reply.ts';
import type { RequestContext } from './router.ts';

export interface RequestLine {
  req: IncomingMessage;
  requestId: string;
  /** The route's metric label. */
  label: string;
  method: string;
  pathname: string;
  reply: Reply;
  context: Pick<RequestContext, 'logFields' | 'repeatable' | 'repeatPer'> | undefined;
  startedMs: number;
}

export function createRequestLog(log: Logger, repeatLines: RepeatLines, redactPath: (pathname: string) => string) {
  return (line: RequestLine): void => {
    const { reply, context } = line;
    const extra = context?.logFields;
    // Why an error answered: the refusal's reason, else the error's code.
    const refused = typeof extra?.refused === 'string' ? extra.refused : undefined;
    const errorCode = refused === undefined ? errorCodeOf(reply) : undefined;
    const marked = context?.repeatable ?? (line.req.method === 'OPTIONS' || undefined);
    const repeatable = reply.status < 500 && marked !== false && (marked === true || reply.status >= 400);
    const reason = refused ?? errorCode;
    const per = context?.repeatPer;
    if (repeatable && !repeatLines.admit({ route: line.label, method: line.method, status: reply.status, ...(reason !== undefined && { reason }), ...(per && { per }) })) return;
    // Written through the relay's own logger with the id as its first field: the same line a child
    // logger would write, without making one for every request (handlers that log make theirs).
    const fields: Fields = {
      requestId: line.requestId,
      method: line.req.method,
      path: loggedPath(redactPath(line.pathname)),
      status: reply.status,
      ...(errorCode !== undefined && { error: errorCode }),
      ms: Math.round((performance.now() - line.startedMs) * 10) / 10,
    };
    if (extra) for (const name in extra) if (!Object.hasOwn(fields, name)) fields[name] = extra[name];
    log.info('request', fields);
  };
}

/** Long paths are cut in the log. */
function loggedPath(path: string): string {
  return path.length > 120 ? path.slice(0, 120) + '…' : path;
}

/** The error code of an answer made from a RelayError (`{"error": {"code"}}`), if it is one. */
function errorCodeOf(reply: Reply): string | undefined {
  const body = reply.body as Partial<ErrorBody> | undefined;
  return reply.status >= 400 && body && typeof body === 'object' && typeof body.error?.code === 'string' ? body.error.code : undefined;
}
