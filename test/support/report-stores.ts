// The report store of each kind a relay can run on, made fresh for a test: memory, SQLite (a new
// DATA_DIR), Redis and a real 3-primary Redis Cluster, all on the test's clock.
import { createMemoryReportStore } from '../../server/src/report/memory-report-store.ts';
import { createRedisReportStore } from '../../server/src/report/redis-report-store.ts';
import type { ReportStore } from '../../server/src/report/report-store.ts';
import { createSqliteReportStore } from '../../server/src/report/sqlite-report-store.ts';
import { openDatabase } from '../../server/src/storage/sqlite/database.ts';
import { tempDataDir } from './crash.ts';
import { redisForTests, type RedisForTests } from './redis-test-connection.ts';

/**
 * `factories` for describe.each ([name, make]), and the single Redis server they use. Call it at the
 * top of a test file: it registers the Redis servers' hooks.
 */
export function reportStores(now: () => number): { factories: [string, () => ReportStore][]; redis: RedisForTests } {
  const redis = redisForTests();
  const redisCluster = redisForTests({ cluster: true });
  return {
    redis,
    factories: [
      ['memory', () => createMemoryReportStore({ now })],
      ['sqlite', () => createSqliteReportStore({ db: openDatabase({ dataDir: tempDataDir() }), now })],
      ['redis', () => createRedisReportStore({ connection: redis.fresh(), now })],
      ['redis-cluster', () => createRedisReportStore({ connection: redisCluster.fresh(), now })],
    ],
  };
}
