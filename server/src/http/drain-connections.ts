// Letting a server's connections go on shutdown without cutting an answer short: an idle socket is
// ended at once, a socket that has started a request finishes it (its answer carries
// `Connection: close`), and a request read from a socket already ended is not handled, since its peer
// retries elsewhere. Why server.close() alone is not enough: http/README.md.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionDrain {
  /** Ends every socket that is idle with nothing unread; later ones are ended as they fall idle. */
  drain(): void;
  /** True when `req` came in on a socket drain() had already ended: drop it, do not answer. */
  arrivedTooLate(req: IncomingMessage): boolean;
}

interface SocketState {
  /** Requests read and not yet answered. */
  inFlight: number;
  /** socket.bytesRead when the last answer went out: more since means a request is arriving. */
  readAtRest: number;
}

export function drainConnections(server: Server): ConnectionDrain {
  const sockets = new Map<Socket, SocketState>();
  const ended = new WeakSet<Socket>();
  let draining = false;

  const endIfIdle = (socket: Socket, state: SocketState) => {
    if (state.inFlight > 0 || socket.bytesRead !== state.readAtRest || socket.destroyed) return;
    ended.add(socket);
    socket.end();
  };

  server.on('connection', (socket: Socket) => {
    const state: SocketState = { inFlight: 0, readAtRest: 0 };
    sockets.set(socket, state);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const state = sockets.get(req.socket);
    if (!state) return;
    state.inFlight += 1;
    res.once('close', () => {
      state.inFlight -= 1;
      state.readAtRest = req.socket.bytesRead;
      if (draining) endIfIdle(req.socket, state);
    });
  });

  return {
    drain() {
      draining = true;
      for (const [socket, state] of sockets) endIfIdle(socket, state);
    },
    arrivedTooLate(req) {
      return ended.has(req.socket);
    },
  };
}
