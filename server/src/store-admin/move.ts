// `npm run store -- move <from> <to>`: every kind of record (store-records.ts) read from one store
// and written to the other a batch at a time, each with its remaining time to live; the store moved
// from is only read. Why a non-empty target is refused, why the moved record wins a merge, the
// order calls are written in, and how counts and HASH_SECRET are checked: store-admin/README.md.
import { numberHmac } from '../phone/number-hash.ts';
import type { MovedJob } from '../callback/stores/job-records.ts';
import { addWritten, noneWritten, type RecordSet, type RecordsWritten } from '../storage/record-set.ts';
import { RECORD_KINDS, type RecordKind, type StoreRecords } from './store-records.ts';

export interface KindMoved extends RecordsWritten {
  /** Records read from the source (within their time). */
  moved: number;
  /** The target's count before and after. */
  before: number;
  after: number;
}

export type MoveSummary = Record<RecordKind, KindMoved>;

export class MoveRefused extends Error {}

export interface MoveOptions {
  merge: boolean;
  /** HASH_SECRET the relays on the target will use. */
  hashSecret: string;
  nowMs?: number;
  /** Progress lines (stderr). */
  note?: (line: string) => void;
}

/** The first held call with its number, checked against HASH_SECRET. */
async function checkHashSecret(calls: RecordSet<MovedJob>, secret: string, nowMs: number): Promise<void> {
  for await (const batch of calls.read(nowMs)) {
    const job = batch.find((j) => j.request.e164 !== null);
    if (!job) continue;
    if (numberHmac(secret, job.request.e164!) !== job.numberHash) {
      throw new MoveRefused(
        "HASH_SECRET is not the secret the stored hashes were made with (a held call's number does not hash to its stored hash): set HASH_SECRET (or HASH_SECRET_FILE) to the secret the relays used (without one, the embedded relay kept it in DATA_DIR/hash-secret)",
      );
    }
    return;
  }
}

/** Writes `records`' batches to `target`, those `first` picks before the rest. */
async function carry<T>(source: RecordSet<T>, target: RecordSet<T>, nowMs: number, first?: (r: T) => boolean): Promise<{ moved: number; written: RecordsWritten }> {
  const written = noneWritten();
  let moved = 0;
  const passes: Array<(r: T) => boolean> = first ? [first, (r) => !first(r)] : [() => true];
  for (const pass of passes) {
    for await (const batch of source.read(nowMs)) {
      const records = batch.filter(pass);
      if (records.length === 0) continue;
      moved += records.length;
      addWritten(written, await target.write(records, nowMs));
    }
  }
  return { moved, written };
}

/** What was moved per kind, and what went wrong (refused records, counts that do not add up): the move failed unless empty. */
export interface MoveResult {
  summary: MoveSummary;
  problems: string[];
}

export async function moveRecords(source: StoreRecords, target: StoreRecords, options: MoveOptions): Promise<MoveResult> {
  const nowMs = options.nowMs ?? Date.now();
  const note = options.note ?? (() => {});
  const before = Object.fromEntries(await Promise.all(RECORD_KINDS.map(async (kind) => [kind, await target[kind].count(nowMs)] as const))) as Record<RecordKind, number>;
  const held = RECORD_KINDS.filter((kind) => before[kind] > 0);
  if (held.length > 0 && !options.merge) {
    throw new MoveRefused(
      `the target already holds data (${held.map((k) => `${k}: ${before[k]}`).join(', ')}); nothing was written. Move into an empty store, or add --merge to write over it (the moved records win)`,
    );
  }
  await checkHashSecret(source.calls, options.hashSecret, nowMs);
  const summary = {} as MoveSummary;
  for (const kind of RECORD_KINDS) {
    note(`moving ${kind}`);
    const finishedFirst = kind === 'calls' ? (job: MovedJob) => job.state !== 'pending' : undefined;
    const { moved, written } = await carry(source[kind], target[kind], nowMs, finishedFirst);
    const after = await target[kind].count(nowMs);
    summary[kind] = { moved, ...written, before: before[kind], after };
  }
  const problems = RECORD_KINDS.flatMap((kind) => {
    const { after, before: was, added, refused } = summary[kind];
    return [
      ...(after !== was + added ? [`${kind}: the target holds ${after} after the move, expected ${was} + ${added}`] : []),
      ...refused.map((why) => `${kind}: not moved: ${why}`),
    ];
  });
  return { summary, problems };
}
