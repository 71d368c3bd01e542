// The records of one kind in one store, read and written whole: what `npm run store -- move`
// (store-admin/move.ts) carries from one store to the other. Each store's record sets live beside
// the store itself (its concept's folder), so a record is written with the same rules the store's
// own steps keep (its indexes, its one booking per number, its expiry).
//
// A record written over one the target already holds replaces it: the store being moved from is the
// one the relays used last, so its version of a record is the newer one (store-admin/move.ts).

export interface RecordsWritten {
  /** Records the target did not hold. */
  added: number;
  /** Records that replaced the target's own of the same id. */
  replaced: number;
  /** Records left out, each with why (e.g. a second booking for one number). */
  refused: string[];
}

export interface RecordSet<T> {
  /** Records held now (those past their time but not yet removed included, where cheap to tell). */
  count(nowMs: number): Promise<number>;
  /** Every record still within its time at `nowMs`, a batch at a time. */
  read(nowMs: number): AsyncIterable<T[]>;
  /** Writes a batch, each record with its remaining time to live (from its own timestamps). */
  write(records: readonly T[], nowMs: number): Promise<RecordsWritten>;
}

/** Records per batch: bounded memory whatever the store holds. */
export const RECORD_BATCH = 500;

export const noneWritten = (): RecordsWritten => ({ added: 0, replaced: 0, refused: [] });

/** Adds `b`'s counts to `a`. */
export function addWritten(a: RecordsWritten, b: RecordsWritten): RecordsWritten {
  a.added += b.added;
  a.replaced += b.replaced;
  a.refused.push(...b.refused);
  return a;
}

/** Batches of `size` from rows read page by page: `page(after, size)` answers the rows after the key `after` (null: from the start). */
export async function* pages<T>(page: (after: T | null, size: number) => T[], size = RECORD_BATCH): AsyncIterable<T[]> {
  let after: T | null = null;
  for (;;) {
    const rows = page(after, size);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1]!;
  }
}
