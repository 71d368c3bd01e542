// Small HTTP helpers. Handlers return a Reply (data), never write to the response themselves:
// that is what lets a fault switch replace, cut or delay any answer in one place.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(value) };
}

export function text(status: number, body: string, contentType = 'text/plain; charset=utf-8'): Reply {
  return { status, headers: { 'content-type': contentType }, body };
}

/** REST error shape of the service's non-RPC endpoints: {"error":{"code","message"}} (assumed). */
export function restError(status: number, message: string): Reply {
  return json(status, { error: { code: status, message } });
}

export function methodNotAllowed(allowed: string[]): Reply {
  return { ...restError(405, `method not allowed; use ${allowed.join(', ')}`), headers: { 'content-type': 'application/json; charset=utf-8', allow: allowed.join(', ') } };
}

export function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const body = Buffer.from(reply.body, 'utf8');
  res.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.length) });
  res.end(body);
}

export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
}

/** Reads the whole body as UTF-8, refusing more than `limit` bytes (the rest is drained, not kept). */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => (tooLarge ? reject(new BodyTooLarge(`body over ${limit} bytes`)) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

/** Constant-time comparison of the Auth-key header with the project's key. */
export function authorized(req: IncomingMessage, authKey: string): boolean {
  const given = req.headers['auth-key'];
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(authKey, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Body as an object from JSON or form encoding (clients send both to /callback/outward_call). */
export function parseFormOrJson(req: IncomingMessage, body: string): Record<string, unknown> | null {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.includes('application/json') || /^\s*\{/.test(body)) {
    try {
      const value: unknown = JSON.parse(body);
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
  return Object.fromEntries(new URLSearchParams(body));
}
