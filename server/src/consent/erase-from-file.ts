// Erasure from the consent records' file (CONSENT_LOG_PATH): the file is rewritten without the
// number's records (a new file renamed over the old one, so a crash leaves one or the other whole).
// Its records hold the number's keyed hash only, never its digits; they go with the rest of what
// is kept about the number.
import { readFile, rename, writeFile } from 'node:fs/promises';

export async function eraseFromConsentFile(path: string, numberHash: string): Promise<number> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const kept = lines.filter((line) => {
    try {
      return (JSON.parse(line) as { numberHmac?: string }).numberHmac !== numberHash;
    } catch {
      return true;
    }
  });
  if (kept.length === lines.length) return 0;
  const next = `${path}.erasing`;
  await writeFile(next, kept.map((line) => `${line}\n`).join(''), { mode: 0o600 });
  await rename(next, path);
  return lines.length - kept.length;
}
