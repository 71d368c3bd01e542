// A number's records in the consent records' file (CONSENT_LOG_PATH), read from the file itself (a
// relay's memory holds only the newest it wrote since it started) and erased from it: the file is
// rewritten without them (a new file renamed over the old one, so a crash leaves one or the other
// whole), with no append in between (file-gate.ts). Its records hold the number's keyed hash only,
// never its digits; they go with the rest of what is kept about the number.
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import { rewriting } from './file-gate.ts';
import type { ConsentRecord } from './consent-log.ts';

/** The file's lines, or none when it does not exist (yet). */
async function linesOf(path: string): Promise<string[]> {
  try {
    return (await readFile(path, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

function recordOf(line: string): ConsentRecord | null {
  try {
    return JSON.parse(line) as ConsentRecord;
  } catch {
    return null;
  }
}

export async function findInConsentFile(path: string, numberHash: string): Promise<ConsentRecord[]> {
  return (await linesOf(path)).map(recordOf).filter((r): r is ConsentRecord => r?.numberHmac === numberHash);
}

export function eraseFromConsentFile(path: string, numberHash: string): Promise<number> {
  return rewriting(path, async () => {
    const lines = await linesOf(path);
    const kept = lines.filter((line) => recordOf(line)?.numberHmac !== numberHash);
    if (kept.length === lines.length) return 0;
    const next = `${path}.erasing`;
    await writeFile(next, kept.map((line) => `${line}\n`).join(''), { mode: 0o600 });
    // A leftover of a crash keeps its own mode through writeFile: the file's must be 0600 all the same.
    await chmod(next, 0o600);
    await rename(next, path);
    return lines.length - kept.length;
  });
}
