// The operator's alerting rules and dashboard (docs/examples): Prometheus's own promtool checks the
// rules and runs their unit tests, checks the dashboard's queries as PromQL, and every metric either
// names is one a real relay (on Redis, so the Redis families are there too) exports.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { startRelay, type RelayProcess } from '../../support/relay-processes.ts';
import { tempDir } from '../../support/temp-dirs.ts';

const EXAMPLES = fileURLToPath(new URL('../../../docs/examples/', import.meta.url));
const RULES = readFileSync(join(EXAMPLES, 'prometheus-alerts.yml'), 'utf8');
const DASHBOARD = JSON.parse(readFileSync(join(EXAMPLES, 'grafana-dashboard.json'), 'utf8')) as {
  panels: Array<{ id: number; title: string; gridPos: { x: number; y: number; w: number; h: number }; targets: Array<{ expr: string }> }>;
};

/** Runs promtool; throws with what to do when it is missing (the test never skips). */
function promtool(args: string[], cwd: string): { status: number | null; output: string } {
  const run = spawnSync(process.env.PROMTOOL_BIN ?? 'promtool', args, { cwd, encoding: 'utf8' });
  if (run.error) throw new Error(`promtool was not found (${run.error.message}): install Debian's prometheus package (\`apt-get install prometheus\`), or set PROMTOOL_BIN.`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** The metric families an expression names (a histogram's _bucket/_count/_sum are its family). */
function familiesIn(text: string): string[] {
  const names = text.match(/\b(?:dialback|nodejs|process)_[a-z0-9_]+/g) ?? [];
  return [...new Set(names.map((n) => n.replace(/_(bucket|count|sum)$/, '')))];
}

let redis: RedisServer;
let relay: RelayProcess;
beforeAll(async () => {
  redis = await startRedisServer({ persistent: false });
  // As an operator runs it (its own simulator: demo mode), on Redis, with a lead webhook.
  relay = await startRelay({
    REDIS_URL: redis.url,
    HASH_SECRET: 'alert-rules-hash-secret-0123456789',
    LEAD_WEBHOOK_URL: 'http://127.0.0.1:9/hook',
    LEAD_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
  });
});
afterAll(async () => {
  await relay?.kill();
  await redis?.stop();
});

describe('alerting rules', () => {
  it('pass promtool check rules and their unit tests', () => {
    const check = promtool(['check', 'rules', 'prometheus-alerts.yml'], EXAMPLES);
    expect(check.output).toContain('SUCCESS: 10 rules found');
    expect(check.status).toBe(0);
    const test = promtool(['test', 'rules', 'prometheus-alerts.test.yml'], EXAMPLES);
    expect(test.output).toContain('SUCCESS');
    expect(test.status).toBe(0);
  });

  it('cover readiness, Redis down and refusing, a stale copy of the blocked subjects, the breaker, upstream errors, the webhook backlog and late held calls', () => {
    const alerts = [...RULES.matchAll(/- alert: (\w+)/g)].map((m) => m[1]);
    expect(alerts).toEqual([
      'DialbackRelayDown',
      'DialbackRelayNotReady',
      'DialbackRedisDown',
      'DialbackRedisRefusingCommands',
      'DialbackBlockedCopyStale',
      'DialbackBreakerOpen',
      'DialbackUpstreamErrors',
      'DialbackWebhookNotDelivering',
      'DialbackWebhookGaveUp',
      'DialbackHeldCallsLate',
    ]);
    // Every alert has a test case in the unit-test file.
    const tests = readFileSync(join(EXAMPLES, 'prometheus-alerts.test.yml'), 'utf8');
    for (const alert of alerts) expect(tests).toContain(`alertname: ${alert}`);
  });
});

describe('Grafana dashboard', () => {
  it('has panels whose queries are valid PromQL', () => {
    expect(DASHBOARD.panels.length).toBeGreaterThanOrEqual(10);
    expect(new Set(DASHBOARD.panels.map((p) => p.id)).size).toBe(DASHBOARD.panels.length);
    const exprs = DASHBOARD.panels.flatMap((p) => p.targets.map((t) => t.expr));
    expect(exprs.every((e) => e.length > 0)).toBe(true);
    // promtool parses recording rules: one per query, with Grafana's interval as a fixed range.
    const dir = tempDir('dashboard');
    const rules = `groups:\n  - name: dashboard\n    rules:\n${exprs.map((e, i) => `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(e.replaceAll('$__rate_interval', '5m'))}\n`).join('')}`;
    writeFileSync(join(dir, 'dashboard.yml'), rules);
    const check = promtool(['check', 'rules', 'dashboard.yml'], dir);
    expect(check.output).toContain(`SUCCESS: ${exprs.length} rules found`);
  });
});

describe('the metrics the rules and the dashboard name', () => {
  it('are all exported by a relay', async () => {
    const exported = new Set([...(await (await fetch(`${relay.url}/metrics`)).text()).matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]));
    const named = familiesIn(`${RULES}\n${JSON.stringify(DASHBOARD)}`);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((name) => !exported.has(name))).toEqual([]);
  });
});
