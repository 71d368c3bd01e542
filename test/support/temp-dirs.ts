// Temporary directories the tests make (a DATA_DIR, a consent log's or a departments file's folder):
// each is removed once the test that made it is over (after its afterEach hooks, so a relay closed
// there is closed first), or, made outside a test (a file's beforeAll, or at import), once its file
// is over. Left to themselves, one quick-tier run once left some 10,000 of them in /tmp.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

const outsideTests = new Set<string>();

function removeOutsideTests(): void {
  for (const dir of outsideTests) rmSync(dir, { recursive: true, force: true });
  outsideTests.clear();
}

try {
  // Registered when a test file imports this module: the file's last afterAll (hooks run in reverse).
  afterAll(removeOutsideTests);
} catch {
  // Not under Vitest (a benchmark run by node): at the process's exit instead.
}
process.once('exit', removeOutsideTests);

/** A new directory `dialback-<name>-XXXXXX` in the temporary folder, removed after the test (or the file) that made it. */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `dialback-${name}-`));
  try {
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  } catch {
    outsideTests.add(dir);
  }
  return dir;
}
