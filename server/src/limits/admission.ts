// An admitted request's hold on its number: released once, whatever happens; refunded (everything
// it counted given back) when the service provably never got it.
import { isStoreUnavailable } from '../storage/errors.ts';
import type { LimitStore, Receipt } from './limit-store.ts';

export interface Admission {
  /** The request is over, whatever its outcome: frees the number's in-flight slot. */
  release(): Promise<void>;
  /** The service provably never got the request: everything counted is given back. */
  refund(): Promise<void>;
}

export class NumberAdmission implements Admission {
  private released = false;

  private readonly store: LimitStore;
  private readonly numberKey: string;
  private readonly receipt: Receipt;

  constructor(store: LimitStore, numberKey: string, receipt: Receipt) {
    this.store = store;
    this.numberKey = numberKey;
    this.receipt = receipt;
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    try {
      await this.store.release(this.numberKey);
    } catch (err) {
      // The shared store went away after the call was placed: the slot frees itself at its TTL
      // (inFlightTtlMs), and the visitor must still hear that the call was placed.
      if (!isStoreUnavailable(err)) throw err;
    }
  }

  async refund(): Promise<void> {
    await this.store.refund(this.receipt);
    await this.release();
  }
}

/** A booking's counts (AdmitInput part 'visitor'): nothing in flight to release; a refund gives the counts back. */
export class CountsOnly implements Admission {
  private readonly store: LimitStore;
  private readonly receipt: Receipt;

  constructor(store: LimitStore, receipt: Receipt) {
    this.store = store;
    this.receipt = receipt;
  }

  async release(): Promise<void> {}

  async refund(): Promise<void> {
    await this.store.refund(this.receipt);
  }
}

/**
 * The same admission, with `forget` run before a refund: a refund gives places back, so what a
 * layer holds in memory about the refused (held-refusals.ts) must go with it.
 */
export function forgettingOnRefund(admission: Admission, forget: () => void): Admission {
  return {
    release: () => admission.release(),
    refund() {
      forget();
      return admission.refund();
    },
  };
}
