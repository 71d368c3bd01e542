// The relay bench's baselines and stand-ins, each a real node:http server on loopback: the service
// (answers at once), a minimal undici passthrough to it with or without the per-request work the
// relay cannot skip, and a bare hello-world.
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Pool } from 'undici';
import type { Config } from '../../server/src/config/index.ts';
import { requestFingerprint } from '../../server/src/idempotency/request-key.ts';
import type { Logger } from '../../server/src/log/index.ts';
import { checkDestination, maskInternational } from '../../server/src/phone/phone-policy.ts';

/** The site every bench request comes from (the relay's ALLOWED_ORIGINS). */
export const ORIGIN = 'https://shop.example';
// ---------------------------------------------------------------- servers

/** The stand-in service: answers the callback and the SIP status at once. */
export function upstreamServer(): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url?.startsWith('/sipstatus/')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('["manager1"]');
      }
      let id: unknown = null;
      try {
        id = (JSON.parse(body) as { id?: unknown }).id ?? null;
      } catch {
        /* answer anyway */
      }
      const out = JSON.stringify({ jsonrpc: '2.0', id, result: { status: 'ok' } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    });
  });
}

/** What a server does with one callback besides passing it on: the number to send, the answer. */
export type PerRequestWork = (req: IncomingMessage, phone: string) => { callee: string; answer: Record<string, unknown>; after?: () => void };

const noWork: PerRequestWork = (_req, phone) => ({ callee: phone, answer: { status: 'accepted' } });

/**
 * The least a relay can do: read the body, make one undici request upstream, answer 202. With
 * `work`, exactly that plus the given per-request work (the reference rows).
 */
export function passthroughServer(upstreamUrl: string, work: PerRequestWork = noWork): { server: Server; pool: Pool } {
  const pool = new Pool(upstreamUrl, { connections: 64 });
  let id = 1;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const { phone } = JSON.parse(Buffer.concat(chunks).toString()) as { phone: string };
      const done = work(req, phone);
      const up = await pool.request({
        path: '/a/v2',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'auth-key': 'bench-auth-key-0000' },
        body: JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'Api\\V2\\Callback.external', params: { callee: done.callee } }),
      });
      await up.body.text();
      const out = JSON.stringify(done.answer);
      res.writeHead(202, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
      done.after?.();
    });
  });
  return { server, pool };
}

/**
 * For reference, not a goal: the per-request work the issue requires of an accepted callback
 * whatever the implementation, in parts that can be switched off:
 *   phone:  E.164 validation with full metadata, the number's type and the read-back (the relay's
 *           own checkDestination and maskInternational, on libphonenumber-js/max as the issue asks);
 *   rest:   HMAC keys for the number, the client and the number prefix, the Idempotency-Key and
 *           body hashes, a request id and one log line.
 * The passthrough with both is a ceiling for the accepted-path ratio; with each part alone, it shows
 * what that part takes of the budget by itself.
 */
export function requiredWork(config: Config, log: Logger, parts: { phone: boolean; rest: boolean }): PerRequestWork {
  return (req, phone) => {
    const destination = parts.phone ? checkDestination(phone, undefined, config.phone) : { digits: phone.slice(1), international: phone };
    const phoneMasked = parts.phone ? maskInternational(destination.international) : phone;
    let requestId = 'no-id';
    if (parts.rest) {
      const client = String(req.headers['x-forwarded-for']);
      for (const subject of [`number\0${destination.digits}`, `client\0${client}`, `prefix\0${destination.digits.slice(0, -4)}`]) {
        createHmac('sha256', config.hash.secret).update(subject).digest('hex');
      }
      createHash('sha256')
        .update(`${ORIGIN}\0${String(req.headers['idempotency-key'])}`)
        .digest('base64url');
      requestFingerprint({ phone });
      requestId = randomUUID();
    }
    const id = requestId;
    return {
      callee: destination.digits,
      answer: { status: 'accepted', requestId: id, phoneMasked, estimateSeconds: 30 },
      ...(parts.rest && { after: () => log.info('request', { method: 'POST', path: '/api/callback', status: 202, requestId: id }) }),
    };
  };
}

export function helloServer(): Server {
  return createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 5 });
    res.end('hello');
  });
}
