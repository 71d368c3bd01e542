// What became of one callback request, and the public answer for it. The use-case returns an
// outcome; routes/callback.ts sends its answer. The answer is also what an Idempotency-Key replays,
// so it is made in one place only.
import type { CallbackAccepted, CallbackQueued, CallbackScheduled } from '../../contract/contract.ts';
import type { RelayError } from '../../contract/errors.ts';
import { errorAnswer, json, type Answer } from '../../contract/answer.ts';
import type { Refusal } from '../../limits/limit-store.ts';
import { createRefusalReplies } from '../../limits/refusal-answers.ts';

export type CallbackOutcome =
  /** The service took the call. */
  | { kind: 'accepted'; accepted: CallbackAccepted }
  /** Booked for `at` (scheduledFor): the relay places it then. */
  | { kind: 'scheduled'; callbackId: string; at: Date; cancelToken: string; maskedNumber: string }
  /** The service provably never got it: held, and placed as soon as the service answers. */
  | { kind: 'queued'; callbackId: string; cancelToken: string; maskedNumber: string }
  /** A repeat of an Idempotency-Key: the first request's answer, as it was. */
  | { kind: 'replayed'; answer: Answer }
  /** A limit refused it (before or after its body was read); `phone` is masked, for the log line. */
  | { kind: 'refused'; refusal: Refusal; phone: string | null }
  /** The CAPTCHA or the service refused it, or the service's answer is unknown. `reachedService`: a repeat must not place it again. */
  | { kind: 'failed'; error: RelayError; reachedService: boolean };

const noStore = Object.freeze({ 'cache-control': 'no-store' });

export function createAnswers(): (outcome: CallbackOutcome) => Answer {
  const refusalReply = createRefusalReplies();
  return (outcome) => {
    switch (outcome.kind) {
      case 'accepted':
        return json(202, outcome.accepted, noStore);
      case 'scheduled': {
        const body: CallbackScheduled = {
          status: 'scheduled',
          requestId: outcome.callbackId,
          scheduledFor: outcome.at.toISOString(),
          cancelToken: outcome.cancelToken,
          phoneMasked: outcome.maskedNumber,
        };
        return json(202, body, noStore);
      }
      case 'queued': {
        const body: CallbackQueued = { status: 'queued', requestId: outcome.callbackId, cancelToken: outcome.cancelToken, phoneMasked: outcome.maskedNumber };
        return json(202, body, noStore);
      }
      case 'replayed':
        return outcome.answer;
      case 'refused':
        return refusalReply(outcome.refusal);
      case 'failed':
        return errorAnswer(outcome.error);
    }
  };
}

/** The outcome's label in /metrics (callbacks_total{outcome}) for a request that reached the service. */
export function metricOutcome(error: RelayError | null): string {
  if (!error) return 'accepted';
  if (error.code === 'upstream_rejected') return 'rejected';
  if (error.code === 'upstream_unavailable') return 'unavailable';
  if (error.code === 'upstream_timeout') return 'timeout';
  return 'unknown';
}
