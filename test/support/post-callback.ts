// POST /api/callback as a test sends it: a JSON body from the allowed origin, over a real socket
// with fetch. Each part can be changed or left out for the test at hand (another origin or none,
// an Idempotency-Key, a client address behind a trusted proxy, a body that is not JSON at all),
// and the whole answer comes back read: status, headers, text, and the JSON when asked for it.
import type { CallbackRequest, ErrorBody } from '../../server/src/contract/contract.ts';

/** The site the tests' relays allow (ALLOWED_ORIGINS), and the Origin a request carries unless told otherwise. */
export const ORIGIN = 'https://shop.example';
/** A valid Ukrainian mobile number: the body's phone when a test gives no body. */
export const PHONE = '+380501234567';

/** A request body: the contract's fields (any value, so a test can send a wrong one) and any others. */
export type CallbackBody = { [K in keyof CallbackRequest]?: unknown } & Record<string, unknown>;

export interface PostOptions {
  /** The Origin header: ORIGIN unless given; null sends none. */
  origin?: string | null;
  idempotencyKey?: string;
  /** Sent as X-Forwarded-For: the client's address, which the relay believes only from a peer in TRUSTED_PROXIES. */
  forwardedFor?: string;
  /** More headers, or others in place of the ones above (names in lower case). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Any answer of POST /api/callback: one of the 202 bodies or an error, loosely, for assertions. */
export interface Reply {
  status?: string;
  requestId?: string;
  cancelToken?: string;
  scheduledFor?: string;
  phoneMasked?: string;
  estimateSeconds?: number;
  error?: ErrorBody['error'];
}

/** A response, read to its end. */
export class Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  constructor(status: number, headers: Headers, text: string) {
    this.status = status;
    this.headers = headers;
    this.text = text;
  }
  /** The body as JSON; throws, as Response.json() does, when it is not JSON. */
  get json(): Reply {
    try {
      return JSON.parse(this.text) as Reply;
    } catch {
      throw new Error(`expected a JSON body, got HTTP ${this.status}: ${this.text.slice(0, 200)}`);
    }
  }
  /** The error code of a refusal; undefined for an answer that is no error. */
  get code(): string | undefined {
    return this.json.error?.code;
  }
}

/** Reads a response to its end (an answer already read stays as it is). */
export async function answerOf(res: Response | Answer): Promise<Answer> {
  return res instanceof Answer ? res : new Answer(res.status, res.headers, await res.text());
}

/** A relay's base URL, a system (relayUrl) or a relay process (url). */
export type RelayTarget = string | { relayUrl: string } | { url: string };

const baseUrl = (to: RelayTarget) => (typeof to === 'string' ? to : 'relayUrl' in to ? to.relayUrl : to.url);

/**
 * POST /api/callback. An object body is sent as JSON; a string is sent exactly as it is (not JSON,
 * cut short, empty). Without a body: { phone: PHONE }.
 */
export async function postCallback(to: RelayTarget, body: CallbackBody | string = { phone: PHONE }, options: PostOptions = {}): Promise<Answer> {
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  const res = await fetch(`${baseUrl(to)}/api/callback`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(origin !== null && { origin }),
      ...(options.idempotencyKey !== undefined && { 'idempotency-key': options.idempotencyKey }),
      ...(options.forwardedFor !== undefined && { 'x-forwarded-for': options.forwardedFor }),
      ...options.headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(options.signal && { signal: options.signal }),
  });
  return answerOf(res);
}
