// The client for the call-tracking service's HTTP interface (docs/service-interface.md), as a factory
// with an injectable dispatcher and timeout (after viem's rpc/http.ts). Methods return values or
// throw one of calltracking/errors.ts; nothing else escapes.
import { DEFAULT_PROJECT_TIME_ZONE } from '../config/service.ts';
import { z } from 'zod';
import { createTransport, type TransportOptions } from './transport.ts';
import { readJson, readRpcResult } from './responses.ts';
import { listCalls, type CallsListQuery } from './calls-list.ts';
import type { CallField, CallRecord } from './call-fields.ts';
import { readOutwardCall, type OutwardCallParams, type OutwardCallResult } from './outward-call.ts';

/** Decoded method name; JSON.stringify doubles each backslash on the wire, as the spec requires. */
export const CALLBACK_EXTERNAL_METHOD = 'Api\\V2\\Callback.external';

export interface CallbackExternalParams {
  caller: string;
  callee: string;
  caller_type: 'default' | 'scheme';
  callee_type: 'default' | 'scheme';
  direction: 'in' | 'out';
  manager_dst: 0 | 1;
  projectId: string;
  clientIp: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  utmTerm?: string;
  utmContent?: string;
  clientId?: string;
  clientUserAgent?: string;
}

const SipLogins = z.array(z.string());

export interface CallTrackingClientOptions extends TransportOptions {
  /**
   * The project's IANA time zone, set in the service's project settings: `/calls/list` takes
   * `from`/`to` as wall-clock time in it. Default Europe/Kyiv (assume: Ringostat's home zone, and the
   * simulator's).
   */
  timeZone?: string;
}

export { DEFAULT_PROJECT_TIME_ZONE };

export function createCallTrackingClient(options: CallTrackingClientOptions) {
  const transport = createTransport(options);
  const timeZone = options.timeZone ?? DEFAULT_PROJECT_TIME_ZONE;
  let nextId = 1;

  return {
    /** `POST /a/v2` `Api\V2\Callback.external`. Resolves when the service accepted the call. */
    async callbackExternal(params: CallbackExternalParams): Promise<{ id: number; result: unknown }> {
      const id = nextId++;
      const raw = await transport.send({
        method: 'POST',
        path: '/a/v2',
        body: { json: { jsonrpc: '2.0', id, method: CALLBACK_EXTERNAL_METHOD, params } },
      });
      return { id, result: readRpcResult(raw, id) };
    },

    /** `GET /sipstatus/online`: SIP logins that are online. */
    async sipOnline(): Promise<string[]> {
      return readJson(await transport.send({ method: 'GET', path: '/sipstatus/online' }), SipLogins, 'sipstatus/online');
    },

    /** `GET /sipstatus/speaking`: SIP logins taking part in a call. */
    async sipSpeaking(): Promise<string[]> {
      return readJson(await transport.send({ method: 'GET', path: '/sipstatus/speaking' }), SipLogins, 'sipstatus/speaking');
    },

    /**
     * `GET /calls/list`: the calls of [from, to] with exactly `fields`, typed (numbers as numbers,
     * `calldate` as a Date). Long or busy periods are split into several requests under the 6,500
     * rows cap (calls-list.ts); the rows come back as one list in `order`.
     */
    callsList<F extends CallField>(query: CallsListQuery<F>): Promise<CallRecord<F>[]> {
      return listCalls(transport, query, { timeZone });
    },

    /** `POST /callback/outward_call` (form-encoded): the simple callback from a project number. */
    async outwardCall(params: OutwardCallParams): Promise<OutwardCallResult> {
      const form = { extension: params.extension.trim(), destination: params.destination.trim() };
      if (!form.extension || !form.destination) throw new TypeError('outwardCall: extension and destination are required');
      return readOutwardCall(await transport.send({ method: 'POST', path: '/callback/outward_call', body: { form } }));
    },

    close: () => transport.close(),
  };
}

export type CallTrackingClient = ReturnType<typeof createCallTrackingClient>;
