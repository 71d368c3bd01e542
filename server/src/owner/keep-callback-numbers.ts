// The lifecycle listener that keeps a missed or failed lead's number for the owner's "call back
// now" (callback-numbers.ts). Listeners hear of a step before the store records it, while the job
// still holds its number; the store then empties it.
import type { LifecycleListener } from '../callback/lifecycle.ts';
import { mayCallBack } from '../callback/stages.ts';
import type { Logger } from '../log/index.ts';
import { CALL_BACK_DAYS, type CallBackNumbers } from './callback-numbers.ts';

export function keepCallBackNumbers(numbers: CallBackNumbers, log: Logger): LifecycleListener {
  return async ({ job, to, at }) => {
    // The job before the step: its claims so far (none for a call now the service refused at once).
    if (!mayCallBack(to, job.attempts) || job.request.e164 === null) return;
    try {
      await numbers.keep(job.callbackId, job.request.e164, job.numberHash, at + CALL_BACK_DAYS * 86_400_000);
    } catch (err) {
      log.warn('owner call-back: number not kept', { err, callbackId: job.callbackId });
    }
  };
}
