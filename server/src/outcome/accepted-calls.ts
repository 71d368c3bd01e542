// Callbacks the relay placed, by requestId, so `GET /api/callback/<requestId>` can later tell the
// visitor what became of theirs. Bounded: the oldest entries go first; an entry is only useful for
// the few minutes a visitor watches the widget.
export interface AcceptedCall {
  requestId: string;
  /** Digits in international format, as sent to the service (the call log's `dst`). */
  digits: string;
  acceptedAt: Date;
  origin: string;
}

export interface AcceptedCalls {
  add(call: AcceptedCall): void;
  get(requestId: string): AcceptedCall | undefined;
  readonly size: number;
}

export function createAcceptedCalls(limit = 50_000): AcceptedCalls {
  const calls = new Map<string, AcceptedCall>();
  return {
    add(call) {
      calls.set(call.requestId, call);
      if (calls.size > limit) calls.delete(calls.keys().next().value!);
    },
    get: (requestId) => calls.get(requestId),
    get size() {
      return calls.size;
    },
  };
}
