// The settings tables in docs/operations.md and loadConfig agree: every documented variable is read,
// and every variable read is documented, so neither can drift from the other unnoticed.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/src/config/index.ts';

const sim = { baseUrl: 'http://127.0.0.1:9999', authKey: 'sim-key-123456', projectId: '100500', caller: '380441112233' };

/** The names in the first column of each `| variable | default | meaning |` table. */
function documentedVariables(): Set<string> {
  const lines = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8').split('\n');
  const names = new Set<string>();
  let inTable = false;
  for (const line of lines) {
    if (/^\|\s*variable\s*\|\s*default\s*\|\s*meaning\s*\|/.test(line)) inTable = true;
    else if (!line.startsWith('|')) inTable = false;
    else if (inTable) for (const [, name] of (line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(name!);
  }
  return names;
}

/** The variables loadConfig looks at, whatever their values. */
function variablesRead(env: Record<string, string>): Set<string> {
  const read = new Set<string>();
  const recording = new Proxy(env, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return target[name as string];
    },
  });
  loadConfig(recording, sim);
  return read;
}

describe('documented settings', () => {
  const documented = documentedVariables();

  it('finds the settings tables', () => {
    expect(documented.size).toBeGreaterThan(60);
    expect(documented).toContain('PORT');
    expect(documented).toContain('REDIS_TIMEOUT_MS');
  });

  it('reads every documented variable, in demo mode and against a real service', () => {
    const demo = variablesRead({});
    const external = variablesRead({
      CALLTRACKING_BASE_URL: 'https://api.example.net',
      CALLTRACKING_AUTH_KEY: 'real-auth-key-xyz',
      CALLTRACKING_PROJECT_ID: '4242',
      CALLBACK_CALLER: '380441112233',
      ALLOWED_ORIGINS: 'https://shop.example',
    });
    // OpenTelemetry's variables are read by main.ts (is tracing wanted?) and by its SDK, not by loadConfig.
    const ours = [...documented].filter((name) => !name.startsWith('OTEL_'));
    for (const read of [demo, external]) expect(ours.filter((name) => !read.has(name))).toEqual([]);
  });

  it('reads no variable the tables leave out', () => {
    expect([...variablesRead({})].filter((name) => !documented.has(name))).toEqual([]);
  });
});
