// `npm run store -- move` both ways with 100,000 report facts and 10,000 pending calls (each with
// its consent record, outbox event and digest lead): the command's wall time and its peak memory
// (the process's maximum resident set, from /usr/bin/time), on one Redis and on a 3-primary
// Cluster. `npm run bench -- store-move`; MOVE_BENCH_FACTS and MOVE_BENCH_CALLS size the data.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisCluster } from '../support/redis-cluster.ts';
import { startRedisServer } from '../support/redis-server.ts';
import { HASH_SECRET, seedEmbedded } from '../support/store-move.ts';

const tempDataDir = () => mkdtempSync(join(tmpdir(), 'dialback-move-bench-'));
const FACTS = Number(process.env.MOVE_BENCH_FACTS ?? 100_000);
const CALLS = Number(process.env.MOVE_BENCH_CALLS ?? 10_000);

interface Measured {
  seconds: number;
  maxRssMb: number;
  moved: Record<string, number>;
}

/** The command under /usr/bin/time: its wall time and maximum resident set. */
function move(args: string[], env: Record<string, string>): Measured {
  const run = spawnSync('/usr/bin/time', ['-f', 'TIME %e %M', process.execPath, 'server/src/store-admin/cli.ts', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const timing = /TIME ([\d.]+) (\d+)/.exec(run.stderr);
  if (run.status !== 0 || !timing) throw new Error(`move ${args.join(' ')} failed: ${run.stderr}`);
  const summary = JSON.parse(run.stdout) as Record<string, { moved: number }>;
  return { seconds: Number(timing[1]), maxRssMb: Math.round(Number(timing[2]) / 1024), moved: Object.fromEntries(Object.entries(summary).map(([k, v]) => [k, v.moved])) };
}

const started = Date.now();
const source = tempDataDir();
await seedEmbedded(source, { calls: CALLS, facts: FACTS, dueAt: Date.now() + 86_400_000 });
console.log(`seeded ${CALLS} pending calls and ${FACTS} report facts in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const rows: string[] = [];
for (const [name, start] of [
  [
    'one Redis',
    async () => {
      const redis = await startRedisServer({ persistent: false });
      return { redis, env: { REDIS_URL: redis.url } as Record<string, string> };
    },
  ],
  [
    'Cluster (3 primaries)',
    async () => {
      const cluster = await startRedisCluster(3);
      return { redis: cluster, env: { REDIS_CLUSTER: 'true', REDIS_URL: cluster.seeds } };
    },
  ],
] as const) {
  const { redis, env: topology } = await start();
  const env = { DATA_DIR: source, ...topology, REDIS_PREFIX: 'bench:', HASH_SECRET };
  const there = move(['move', 'embedded', 'redis'], env);
  const back = tempDataDir();
  const again = move(['move', 'redis', 'embedded'], { ...env, DATA_DIR: back });
  rmSync(back, { recursive: true, force: true });
  await redis.stop();
  for (const [direction, m] of [
    ['embedded → Redis', there],
    ['Redis → embedded', again],
  ] as const) {
    rows.push(
      `| ${name} | ${direction} | ${m.moved['report-leads']} facts, ${m.moved['report-opens']} open counts, ${m.moved.calls} calls | ${m.seconds.toFixed(1)} s | ${m.maxRssMb} MB |`,
    );
  }
}
rmSync(source, { recursive: true, force: true });
console.log('\n| store | direction | moved | wall time | peak RSS |\n|---|---|---|---|---|');
for (const row of rows) console.log(row);
