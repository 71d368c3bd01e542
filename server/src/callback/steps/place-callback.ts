// Asking the service to place the call. Retried once, and only when the connection provably never
// opened: after any other failure the service may already be ringing someone, and a second request
// could ring the visitor twice.
import type { CallTrackingClient, CallbackExternalParams } from '../../calltracking/client.ts';
import { CallTrackingError } from '../../calltracking/errors.ts';
import type { Logger } from '../../log/index.ts';

export async function placeCallback(
  client: Pick<CallTrackingClient, 'callbackExternal'>,
  params: CallbackExternalParams,
  log: Logger,
): Promise<{ attempts: number; rpcId: number }> {
  try {
    const { id } = await client.callbackExternal(params);
    return { attempts: 1, rpcId: id };
  } catch (err) {
    if (!(err instanceof CallTrackingError && err.neverSent)) throw err;
    log.warn('service connection never opened; retrying once', { err });
    const { id } = await client.callbackExternal(params);
    return { attempts: 2, rpcId: id };
  }
}
