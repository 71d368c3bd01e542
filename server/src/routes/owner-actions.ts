// The owner's actions on a lead, behind the owner view's access (routes/owner.ts). Like the cancel
// button, they need no visitor's token: the owner view's own access (a header, or the
// SameSite=Strict cookie no other site's form can send) authorises them.
//   POST /owner/api/leads/<id>/call-back   202 { status: 'scheduled', requestId, dueAt }; honours Idempotency-Key
//   POST /owner/api/leads/<id>/never-call  200 { status: 'listed', listedAt }
import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../app-context.ts';
import { json } from '../http/reply.ts';
import type { Route } from '../http/router.ts';
import { readIdempotencyKey, requestFingerprint } from '../idempotency/request-key.ts';
import { callBack, neverCall } from '../owner/call-back.ts';

/** The scope of the owner's Idempotency-Keys: apart from every site's. */
const OWNER_SCOPE = 'owner-view';
const LEAD = '(?<callbackId>[0-9a-f-]{36})';

export function ownerActionRoutes(app: AppContext, access: (req: IncomingMessage) => boolean, headers: Record<string, string>): Route[] {
  return [
    {
      path: new RegExp(`^/owner/api/leads/${LEAD}/call-back$`),
      origin: 'none',
      access,
      methods: {
        POST: async (rc) => {
          const id = rc.params.callbackId!;
          const key = readIdempotencyKey(rc.req.headers['idempotency-key']);
          const begun = key === undefined ? null : await app.idempotency.begin(OWNER_SCOPE, key, requestFingerprint({ callBack: id }));
          if (begun?.kind === 'replay') return begun.reply;
          const ticket = begun?.ticket ?? null;
          try {
            const answer = json(202, await callBack(app, id, rc.clientIp), headers);
            await ticket?.complete(answer);
            return answer;
          } catch (err) {
            // Refused (not callable, already waiting, listed): nothing was done, so the key is free again.
            await ticket?.abandon();
            throw err;
          }
        },
      },
    },
    {
      path: new RegExp(`^/owner/api/leads/${LEAD}/never-call$`),
      origin: 'none',
      access,
      methods: { POST: async (rc) => json(200, await neverCall(app, rc.params.callbackId!), headers) },
    },
  ];
}
