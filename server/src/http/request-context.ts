// What a handler gets for one request. The URL, the client's address and the request's logger are
// made only when something asks for them: most requests (status reads, widget files) need none.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Fields, Logger } from '../log/index.ts';
import { clientIp } from './client-ip.ts';
import type { CidrList } from '../lib/cidr.ts';
import { parseTarget } from './request-url.ts';
import type { RequestContext } from './router.ts';

export class Context implements RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly requestId: string;
  params: Record<string, string>;
  /** Set by the relay from the route's origin rule before the handler runs. */
  origin: string | null = null;
  logFields: Fields | undefined = undefined;
  repeatable: boolean | undefined = undefined;
  repeatPer: Readonly<Record<string, string>> | undefined = undefined;
  private readonly target: string;
  private parsed: URL | undefined;
  private readonly trustedProxies: CidrList;
  private readonly relayLog: Logger;
  private childLog: Logger | undefined = undefined;
  private address: string | undefined = undefined;

  constructor(req: IncomingMessage, res: ServerResponse, requestId: string, target: string, parsed: URL | undefined, trustedProxies: CidrList, relayLog: Logger) {
    this.req = req;
    this.res = res;
    this.requestId = requestId;
    this.params = {};
    this.target = target;
    this.parsed = parsed;
    this.trustedProxies = trustedProxies;
    this.relayLog = relayLog;
  }

  /** The visitor's address (TRUSTED_PROXIES, X-Forwarded-For). */
  get clientIp(): string {
    return (this.address ??= clientIp(this.req, this.trustedProxies));
  }

  /** The request's logger (its lines carry the request id), made when a handler first logs. */
  get log(): Logger {
    return (this.childLog ??= this.relayLog.child({ requestId: this.requestId }));
  }

  get url(): URL {
    return (this.parsed ??= parseTarget(this.target));
  }
}
