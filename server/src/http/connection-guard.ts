// Connection slots are the relay's scarcest resource (past MAX_CONNECTIONS node refuses every new
// socket), so one client cannot hold them all: a request node could not parse has its socket destroyed
// once its error answer is written, and one client (an IPv4 address, an IPv6 /64; trusted proxies
// exempt) holds at most MAX_CONNECTIONS_PER_CLIENT sockets. Why: http/README.md.
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { RelayError } from '../contract/errors.ts';
import { clientKey } from '../limits/client-key.ts';

export interface ConnectionGuardOptions {
  maxPerClient: number;
  /** Peers whose connections carry many visitors (TRUSTED_PROXIES). */
  isTrustedPeer: (address: string) => boolean;
  /** Counts an answer made here (no route ran), for /metrics. */
  onAnswer: (status: number) => void;
}

/** How long a refused socket may take to take its answer before it is destroyed anyway. */
const FLUSH_GRACE_MS = 1_000;

export function guardConnections(server: Server, options: ConnectionGuardOptions): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || options.isTrustedPeer(address)) return;
    const key = clientKey(address);
    const count = (open.get(key) ?? 0) + 1;
    if (count > options.maxPerClient) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const error = unparsedRequestError(err.code);
    const body = JSON.stringify(error.toBody());
    options.onAnswer(error.status);
    const head = `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n`;
    // The slot is freed once the answer is written; a client that does not even read it loses it
    // after the grace period.
    const grace = setTimeout(() => socket.destroy(), FLUSH_GRACE_MS);
    grace.unref();
    socket.write(head + body, () => {
      clearTimeout(grace);
      socket.destroy();
    });
  });
}

/** A request node could not parse, as the RelayError it is answered with (its status from contract/contract.ts). */
function unparsedRequestError(code: string | undefined): RelayError {
  if (code === 'HPE_HEADER_OVERFLOW') return new RelayError('headers_too_large', 'The request headers are too large.');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new RelayError('request_timeout', 'The request took too long to arrive.');
  return new RelayError('invalid_request', 'The request is not valid HTTP.');
}
