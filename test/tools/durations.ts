// Where the suite's time goes: reads the JSON that Vitest's own reporter writes
// (`npx vitest run --reporter=json --outputFile.json=durations.json`) and prints each project's
// files, tests and seconds, then the slowest files. A file's time is from its first test's start to
// its last test's end (what Vitest's JSON records): hooks before the first test are not in it.
//   node test/tools/durations.ts durations.json [slowest files to list, default 25]
import { readFileSync } from 'node:fs';
import { matchesGlob, relative } from 'node:path';
import config from '../../vite.config.ts';

interface VitestJson {
  startTime: number;
  numTotalTests: number;
  testResults: Array<{ name: string; startTime: number; endTime: number; assertionResults: unknown[] }>;
}

const [file, top = '25'] = process.argv.slice(2);
if (!file) throw new Error('usage: node test/tools/durations.ts <vitest json> [count]');
const report = JSON.parse(readFileSync(file, 'utf8')) as VitestJson;
const projects = (config.test?.projects ?? []) as Array<{ test: { name: string; include: string[] } }>;
const projectOf = (path: string) => projects.find((p) => p.test.include.some((glob) => matchesGlob(path, glob)))?.test.name ?? '(none)';

const files = report.testResults.map((r) => {
  const path = relative(process.cwd(), r.name);
  return { path, project: projectOf(path), seconds: (r.endTime - r.startTime) / 1000, tests: r.assertionResults.length };
});
const seconds = (s: number) => s.toFixed(1).padStart(8);
const sum = (list: typeof files, of: (f: (typeof files)[number]) => number) => list.reduce((n, f) => n + of(f), 0);
const row = (name: string, count: number, tests: number, s: number) => `${name.padEnd(16)}${String(count).padStart(6)}${String(tests).padStart(7)}${seconds(s)}`;

console.log(`${'project'.padEnd(16)}${'files'.padStart(6)}${'tests'.padStart(7)}${'seconds'.padStart(8)}`);
for (const name of [...new Set(files.map((f) => f.project))].sort()) {
  const mine = files.filter((f) => f.project === name);
  console.log(
    row(
      name,
      mine.length,
      sum(mine, (f) => f.tests),
      sum(mine, (f) => f.seconds),
    ),
  );
}
const wall = (Math.max(...report.testResults.map((r) => r.endTime)) - report.startTime) / 1000;
console.log(
  `${row(
    'all',
    files.length,
    report.numTotalTests,
    sum(files, (f) => f.seconds),
  )}  (first start to last end: ${wall.toFixed(1)} s)\n`,
);
for (const f of files.sort((a, b) => b.seconds - a.seconds).slice(0, Number(top))) console.log(`${seconds(f.seconds)}  ${f.project.padEnd(10)} ${f.path} (${f.tests})`);
