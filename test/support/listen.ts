// Starts any node:http server on 127.0.0.1 port 0 and gives back its base URL and a closer
// that also ends keep-alive sockets, so test files never hang on open handles.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  url: string;
  close(): Promise<void>;
}

export async function listen(server: Server): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** An address where nothing listens: a port the OS just handed out and took back. */
export async function deadUrl(): Promise<string> {
  const gone = await listen(createServer());
  await gone.close();
  return gone.url;
}

/**
 * A port the OS just handed out and took back, for servers that must be told their port before they
 * start (redis-server, nginx, a relay restarted on the same address).
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
