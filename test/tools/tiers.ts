// Which test files are quick: a file is "heavy" when it, or a module of test/ it imports (however
// deeply), starts another process (node:child_process: redis-server, relays, nginx, Xvfb, WordPress)
// or drives a browser (playwright-core, puppeteer-core, selenium-webdriver). Read from the imports
// themselves, so a new test lands in the right tier without a list to keep up to date. The few
// in-process files that run for long on purpose are named below. The quick tier
// (`npm run test:quick`) is every other server, simulator and widget test.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const HEAVY_MODULES = new Set(['node:child_process', 'child_process', 'playwright-core', 'puppeteer-core', 'selenium-webdriver']);
const IMPORT = /(?:^|\s)(?:import|export)\s[^;]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)|^import\s+'([^']+)'/gm;

function specifiers(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => (m[1] ?? m[2] ?? m[3])!);
}

/** In-process, but long on purpose: 10,000 fuzzed requests; a year of a flood (1.8 M rows). */
const LONG_RUNS = new Set(['test/server/routes/callback-fuzz.test.ts', 'test/server/report/report-year-flood.test.ts']);

const verdicts = new Map<string, boolean>();

/** Whether `file` (absolute) reaches a heavy module through imports within test/. */
function reachesHeavy(file: string): boolean {
  const known = verdicts.get(file);
  if (known !== undefined) return known;
  verdicts.set(file, false); // an import cycle adds nothing
  let heavy = false;
  for (const spec of specifiers(file)) {
    if (HEAVY_MODULES.has(spec)) heavy = true;
    else if (spec.startsWith('.')) {
      const target = resolve(dirname(file), spec);
      if (target.startsWith(join(ROOT, 'test')) && existsSync(target) && reachesHeavy(target)) heavy = true;
    }
    if (heavy) break;
  }
  verdicts.set(file, heavy);
  return heavy;
}

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.test\.tsx?$/.test(name))
    .map((name) => join(dir, name).split('\\').join('/'));
}

const isHeavy = (file: string) => LONG_RUNS.has(file) || reachesHeavy(join(ROOT, file));

/** Test files under `dirs` (relative to the repository, e.g. 'test/server') that start a process or a browser, or run long. */
export function heavyTestFiles(...dirs: string[]): string[] {
  return dirs.flatMap(testFiles).filter(isHeavy);
}

/** Test files under `dirs` that do neither: the quick tier. */
export function quickTestFiles(...dirs: string[]): string[] {
  return dirs.flatMap(testFiles).filter((file) => !isHeavy(file));
}
