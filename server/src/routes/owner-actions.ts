// The owner's actions on a lead, behind the owner view's access (routes/owner.ts). Like the cancel
// button, they need no visitor's token: the owner view's own access authorises them, which for a
// state-changing request means the token header, or the session cookie with the browser's word
// that the owner view itself sent it (owner-access/provenance.ts): any page of the owner's own site
// makes the browser send the SameSite=Strict cookie.
//   POST /owner/api/leads/<id>/call-back   202 { status: 'scheduled', requestId, dueAt }; honours Idempotency-Key
//   POST /owner/api/leads/<id>/never-call  200 { status: 'listed', listedAt }
//   GET /owner/api/numbers/<E.164>          200 everything kept about the number (number-data/)
//   DELETE /owner/api/numbers/<E.164>       200 what was erased, and what is kept
import type { AppContext } from '../app/app-context.ts';
import { json } from '../http/reply.ts';
import type { Route } from '../http/router.ts';
import { readIdempotencyKey, requestFingerprint } from '../idempotency/request-key.ts';
import { callBack, neverCall } from '../callback/use-cases/call-back.ts';
import { eraseNumberData, numberData, readNumber } from '../number-data/number-data.ts';

/** The scope of the owner's Idempotency-Keys: apart from every site's. */
const OWNER_SCOPE = 'owner-view';
const LEAD = '(?<callbackId>[0-9a-f-]{36})';

/** The path's number: `+` may come percent-encoded (%2B). */
function numberOf(segment: string): string {
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    text = segment;
  }
  return readNumber(text);
}

export function ownerActionRoutes(app: AppContext, access: NonNullable<Route['access']>, headers: Record<string, string>): Route[] {
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
    {
      path: /^\/owner\/api\/numbers\/(?<number>[^/]{1,60})$/,
      origin: 'none',
      access,
      methods: {
        GET: async (rc) => json(200, await numberData(app, numberOf(rc.params.number!)), headers),
        DELETE: async (rc) => json(200, await eraseNumberData(app, numberOf(rc.params.number!)), headers),
      },
    },
  ];
}
