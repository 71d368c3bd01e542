// A number erased on request through one relay is forgotten by the others too: the relay that erases
// leaves a notice in Redis (the number, encrypted under a key derived from HASH_SECRET), and every
// relay reads the notices each second and forgets the number in its own memory and its own files.
// Why the notice adds no exposure: number-data/README.md.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { ErasedNumber, MemoryCopies } from '../lib/memory-copies.ts';
import type { Timers } from '../lib/timers.ts';
import type { Logger } from '../log/index.ts';
import type { SharedState } from './shared-state.ts';

const NAME = 'erasures';
/** How long a notice is kept: a relay cut off from Redis longer than this keeps its copies until they age out. */
export const NOTICE_TTL_MS = 10 * 60_000;
/** How often a relay reads the notices. */
export const NOTICE_POLL_MS = 1_000;

interface Notice {
  /** The relay that erased (it forgot its own copies then). */
  from: string;
  e164: string;
  hash: string;
  callbackIds: string[];
}

export interface ErasureNotices {
  /** Tells the other relays; throws when Redis cannot take the notice. */
  announce(erased: ErasedNumber): Promise<void>;
  /** Reads the notices and forgets the numbers not forgotten yet; answers how many notices were new. */
  readOnce(): Promise<number>;
  start(): void;
  stop(): void;
}

export function createErasureNotices(deps: {
  shared: SharedState;
  copies: MemoryCopies;
  hashSecret: string;
  relayId: string;
  timers: Timers;
  log: Logger;
  /** What this relay keeps alone on disk that the erasing relay could not reach (its consent file). */
  forgetOnDisk?: (erased: ErasedNumber) => Promise<unknown>;
  pollMs?: number;
}): ErasureNotices {
  const key = createHmac('sha256', deps.hashSecret).update('dialback erasure notices').digest();
  const pollMs = deps.pollMs ?? NOTICE_POLL_MS;
  /** The notes read last time: each is applied once. */
  let applied = new Set<string>();
  let timer: unknown = null;

  function seal(notice: Notice): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const sealed = Buffer.concat([cipher.update(JSON.stringify(notice), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  function open(note: string): Notice | null {
    try {
      const bytes = Buffer.from(note, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as Notice;
    } catch {
      // Not ours (another HASH_SECRET under the same prefix) or damaged: nothing to forget by it.
      return null;
    }
  }

  async function readOnce(): Promise<number> {
    const notes = await deps.shared.notes(NAME);
    let fresh = 0;
    for (const note of notes) {
      if (applied.has(note)) continue;
      fresh++;
      const notice = open(note);
      if (!notice || notice.from === deps.relayId) continue;
      const erased = { e164: notice.e164, hash: notice.hash, callbackIds: new Set(notice.callbackIds) };
      deps.copies.forget(erased);
      await deps.forgetOnDisk?.(erased);
    }
    applied = new Set(notes);
    return fresh;
  }

  function schedule(): void {
    timer = deps.timers.setTimeout(() => {
      readOnce()
        .catch((err: unknown) => deps.log.warn('erasure notices not read', { err }))
        .finally(() => {
          if (timer !== null) schedule();
        });
    }, pollMs);
  }

  return {
    async announce(erased) {
      const note = seal({ from: deps.relayId, e164: erased.e164, hash: erased.hash, callbackIds: [...erased.callbackIds] });
      await deps.shared.addNote(NAME, note, NOTICE_TTL_MS);
      applied.add(note);
    },
    readOnce,
    start() {
      if (timer !== null) return;
      // Notices already there when this relay starts name numbers it has never held.
      void deps.shared.notes(NAME).then((notes) => {
        for (const note of notes) applied.add(note);
      });
      schedule();
    },
    stop() {
      if (timer !== null) deps.timers.clearTimeout(timer);
      timer = null;
    },
  };
}
