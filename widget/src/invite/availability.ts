// Whether the invitation may say "we can answer now", "book a call for later", or must stay away:
// from the relay's GET /api/status (the answer the dialog reads too), asked once per page, when a
// trigger first passes the caps, never at page load.
import type { StatusResponse } from '../../../server/src/contract/contract.ts';

/** `now`, `later`, or `''`: nobody can answer and no time can be booked (or no answer): no invitation. */
export type Availability = 'now' | 'later' | '';

export function availabilityOf(status: Partial<StatusResponse> | null): Availability {
  if (typeof status?.openNow !== 'boolean') return '';
  // Not knowing (the service unreachable: the relay holds the call) is no reason to stay away: the
  // dialog takes the request all the same.
  return status.source === 'unknown' || (status.openNow && status.available) ? 'now' : status.windows?.length ? 'later' : '';
}

export function fetchAvailability(relay: string): Promise<Availability> {
  return fetch(relay + '/api/status', { credentials: 'omit', cache: 'no-store' })
    .then((response) => response.json())
    .then(availabilityOf, () => '');
}
