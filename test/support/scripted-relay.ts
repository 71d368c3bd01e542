// A relay stand-in for component tests: a real node:http server on 127.0.0.1:0 whose answers each
// test scripts, so the widget's real fetch code runs against real sockets. (The real relay is
// exercised end to end in test/e2e.)
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listen } from './listen.ts';

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}
export interface Answer {
  status: number;
  body?: unknown;
  /** Destroy the socket instead of answering (a network failure). */
  drop?: boolean;
  /** Answer with this HTML instead of a JSON body (a proxy's error page). */
  html?: string;
}
type Script = (request: Recorded) => Answer;

export async function startScriptedRelay() {
  const routes = new Map<string, Script>();
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '/').split('?')[0]!;
      const recorded: Recorded = { method: req.method ?? 'GET', path, headers: req.headers, body: text ? JSON.parse(text) : null };
      requests.push(recorded);
      const route = [...routes.entries()].find(([key]) => {
        const [method, pattern] = key.split(' ') as [string, string];
        return method === recorded.method && (pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern);
      });
      const answer = route ? route[1](recorded) : { status: 404, body: { error: { code: 'not_found', message: 'No such route.' } } };
      if (answer.drop) {
        req.socket.destroy();
        return;
      }
      if (answer.html !== undefined) return void res.writeHead(answer.status, { 'content-type': 'text/html' }).end(answer.html);
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  const listening = await listen(server);
  return {
    url: listening.url,
    requests,
    /** `key` is "METHOD /path" (a trailing * matches a prefix). */
    on(key: string, script: Script | Answer) {
      routes.set(key, typeof script === 'function' ? script : () => script);
    },
    reset() {
      routes.clear();
      requests.length = 0;
    },
    close: listening.close,
  };
}
export type ScriptedRelay = Awaited<ReturnType<typeof startScriptedRelay>>;
