// Request ids for logs and the X-Request-Id header: letters only. The logger masks every run of
// seven or more digits (a phone number wherever it hides), and a UUID such as 12345678-1234-…
// would have its digits masked in the log but not in the header, breaking the correlation.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ'; // 48 letters: 0x100 % 48 = 16, see below
const LENGTH = 22; // 48^22 ≈ 2^123
const LETTER_CODES = Uint8Array.from(ALPHABET, (letter) => letter.charCodeAt(0));

// Random bytes fetched 4 KB at a time: one system call per ~150 ids instead of one per id.
let pool = Buffer.alloc(0);
let at = 0;

/** One id's letters, written in place and read as one string (not 22 strings concatenated). */
const id = Buffer.alloc(LENGTH);

export function newRequestId(): string {
  let filled = 0;
  while (filled < LENGTH) {
    if (at >= pool.length) {
      pool = randomBytes(4096);
      at = 0;
    }
    const byte = pool[at++]!;
    // Reject the top 16 values so every letter is equally likely.
    if (byte < 240) id[filled++] = LETTER_CODES[byte % 48]!;
  }
  return id.toString('latin1');
}
