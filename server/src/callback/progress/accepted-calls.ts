// Callbacks the relay placed, by callbackId, so `GET /api/callback/<callbackId>` can later tell the
// visitor what became of theirs, and the owner view can mark the widget's calls in the call log.
// Bounded: the oldest entries go first; an entry is only useful for the minutes a visitor watches
// the widget (and for marking the owner's recent calls).
import type { ErasedNumber } from '../../lib/memory-copies.ts';
import { trimOldest } from '../../lib/trim-oldest.ts';

export interface AcceptedCall {
  callbackId: string;
  /** Digits in international format, as sent to the service (the call log's `dst`). */
  digits: string;
  acceptedAt: Date;
  origin: string;
  /** Its department (DEPARTMENTS_FILE), told with its progress. */
  department?: string;
}

export interface AcceptedCalls {
  add(call: AcceptedCall): void;
  get(callbackId: string): AcceptedCall | undefined;
  /** True when some remembered callback went to this number (see sameNumber). */
  hasNumber(digitsOrNumber: string): boolean;
  /** Called after each add (the outcome tracker notes who was speaking when the call was accepted). */
  onAdd(listener: (call: AcceptedCall) => void): void;
  /** Forgets the calls of an erased number (its requests, and any other call to it); answers how many. */
  forgetNumber(erased: Pick<ErasedNumber, 'e164' | 'callbackIds'>): number;
  readonly size: number;
}

const digitsOf = (s: string) => s.replace(/\D/g, '');

/**
 * The same phone number, written with or without the country code or trunk prefix: the call log may
 * show `380501234567` or `0501234567` for a number we sent as `380501234567`. Nine trailing digits
 * identify a subscriber in every numbering plan we serve.
 */
export function sameNumber(a: string, b: string): boolean {
  const x = digitsOf(a);
  const y = digitsOf(b);
  if (x === '' || y === '') return false;
  if (x === y) return true;
  const [short, long] = x.length < y.length ? [x, y] : [y, x];
  return short.length >= 9 && long.slice(-9) === short.slice(-9);
}

export function createAcceptedCalls(limit = 50_000): AcceptedCalls {
  const calls = new Map<string, AcceptedCall>();
  // Last nine digits → how many remembered calls went there: a cheap first test for hasNumber.
  const bySuffix = new Map<string, number>();
  const listeners: Array<(call: AcceptedCall) => void> = [];
  const suffix = (digits: string) => digitsOf(digits).slice(-9);

  function forget(call: AcceptedCall) {
    const key = suffix(call.digits);
    const n = (bySuffix.get(key) ?? 1) - 1;
    if (n <= 0) bySuffix.delete(key);
    else bySuffix.set(key, n);
  }

  return {
    add(call) {
      const previous = calls.get(call.callbackId);
      if (previous) forget(previous);
      calls.set(call.callbackId, call);
      bySuffix.set(suffix(call.digits), (bySuffix.get(suffix(call.digits)) ?? 0) + 1);
      trimOldest(calls, limit, (_id, oldest) => forget(oldest));
      for (const listener of listeners) listener(call);
    },
    get: (callbackId) => calls.get(callbackId),
    hasNumber(number) {
      const key = suffix(number);
      return key.length >= 9 ? bySuffix.has(key) : false;
    },
    onAdd(listener) {
      listeners.push(listener);
    },
    forgetNumber({ e164, callbackIds }) {
      let forgotten = 0;
      for (const [id, call] of calls) {
        if (!callbackIds.has(id) && !sameNumber(call.digits, e164)) continue;
        calls.delete(id);
        forget(call);
        forgotten++;
      }
      return forgotten;
    },
    get size() {
      return calls.size;
    },
  };
}
