// A visitor cancels a call held for later (booked, queued, or a pending re-dial) with the cancel
// token it was given, or the owner does from the owner view (token null: the view's own access
// authorises it). Only the site it was asked from can see it; a call being placed right now cannot
// be cancelled (409), nor one that is over (it answers as it is). The owner's CRM is told.
import type { CallbackDeps } from '../deps.ts';
import type { CallbackProgress } from '../../contract/contract.ts';
import { RelayError } from '../../contract/errors.ts';

export const unknownCallback = () => new RelayError('not_found', 'There is no callback request with this id (or it is too old to track).');

/** `token`: the visitor's cancel token (undefined: none was sent), or null for the owner. */
export async function cancelCallback(
  app: Pick<CallbackDeps, 'lifecycle' | 'metrics' | 'log'> & { stores: Pick<CallbackDeps['stores'], 'jobs'> },
  callbackId: string,
  origin: string | null,
  token: string | null | undefined,
): Promise<CallbackProgress> {
  if (token === undefined || token === '') throw new RelayError('invalid_request', 'Send the cancel token of this call in the Cancel-Token header.', { field: 'Cancel-Token' });
  const job = await app.stores.jobs.get(callbackId);
  if (!job || job.request.origin !== origin) throw unknownCallback();
  // The lifecycle tells the owner's CRM (callback.cancelled).
  const result = await app.lifecycle.cancel(job, token);
  switch (result) {
    case 'cancelled': {
      app.metrics.heldCalls.inc({ kind: job.stage, outcome: 'cancelled' });
      app.log.info('held call cancelled', { callbackId, stage: job.stage });
      return { requestId: callbackId, outcome: 'cancelled' };
    }
    // Placed already: the job only follows the call (for a re-dial), there is nothing to cancel.
    case 'placed':
      throw new RelayError('not_cancellable', 'The call has already been placed, so there is nothing to cancel.');
    case 'wrong_token':
      throw new RelayError('cancel_not_allowed', 'This call cannot be cancelled with that token.');
    case 'in_progress':
      throw new RelayError('not_cancellable', 'The call is being placed right now and can no longer be cancelled.');
    case 'not_pending':
      // Cancelling twice is answered as the first time; a call that was placed or failed is over.
      if (job.state === 'cancelled') return { requestId: callbackId, outcome: 'cancelled' };
      throw new RelayError('not_cancellable', 'This call is not waiting any more, so there is nothing to cancel.');
    case 'not_found':
      throw unknownCallback();
  }
}
