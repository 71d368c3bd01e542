// `POST /callback/outward_call`, the simple callback. Its answer is unpublished (facts), so success
// is judged by what we can be sure of: HTTP 200 with no error member. A JSON object body is kept as
// it came (the simulator and, as integrations report, the service include an id of the call);
// nothing may depend on its shape.
import { z } from 'zod';
import { CallTrackingInvalidResponseError, CallTrackingRejectedError } from './errors.ts';
import { parseJson, throwUnlessOk } from './responses.ts';
import type { RawResponse } from './transport.ts';

export interface OutwardCallParams {
  /** A number connected to the project, international format: it is called first. */
  extension: string;
  /** International number or SIP login of the party called. */
  destination: string;
}

export interface OutwardCallResult {
  /** The service's id of the call when it sent one (`uniqueid`), else null. */
  uniqueid: string | null;
  /** The whole answer, for logs; do not depend on its shape. */
  body: Record<string, unknown>;
}

const ErrorMember = z.union([z.string(), z.object({ code: z.union([z.number(), z.string()]).optional(), message: z.string().optional() }).passthrough()]);
export const OutwardCallResponse = z.union([z.object({ error: ErrorMember }).passthrough(), z.object({ uniqueid: z.union([z.string(), z.number()]).optional() }).passthrough()]);

export function readOutwardCall(raw: RawResponse): OutwardCallResult {
  throwUnlessOk(raw);
  if (raw.text.trim() === '') return { uniqueid: null, body: {} };
  const parsed = OutwardCallResponse.safeParse(parseJson(raw));
  if (!parsed.success) throw new CallTrackingInvalidResponseError('callback/outward_call: the answer is not a JSON object');
  const body = parsed.data as Record<string, unknown>;
  if ('error' in body && body.error !== null && body.error !== undefined && body.error !== false) {
    const error = body.error as string | { code?: number | string; message?: string };
    const code = typeof error === 'object' && error.code !== undefined && Number.isInteger(Number(error.code)) ? Number(error.code) : null;
    const message = typeof error === 'string' ? error : (error.message ?? '');
    throw new CallTrackingRejectedError(raw.status, code, message.slice(0, 300));
  }
  const uniqueid = body.uniqueid;
  return { uniqueid: uniqueid === undefined || uniqueid === null ? null : String(uniqueid), body };
}
