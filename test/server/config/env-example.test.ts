// .env.example and docs/operations.md name the same settings in the same groups and order: each
// settings table of the docs (`| variable | default | meaning |`) belongs to the heading above it,
// and .env.example has one `# ── <heading> ──` block per such heading with its variables.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Groups = Array<[heading: string, names: string[]]>;

function add(groups: Groups, heading: string, names: string[]): void {
  const last = groups.at(-1);
  if (last && last[0] === heading) last[1].push(...names);
  else groups.push([heading, [...names]]);
}

function documentedGroups(): Groups {
  const groups: Groups = [];
  let heading = '';
  let inTable = false;
  for (const line of readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8').split('\n')) {
    const title = /^#{2,3} (.*)$/.exec(line);
    if (title) heading = title[1]!.replaceAll('`', '');
    else if (/^\|\s*variable\s*\|\s*default\s*\|\s*meaning\s*\|/.test(line)) inTable = true;
    else if (!line.startsWith('|')) inTable = false;
    else if (inTable && !line.startsWith('|---'))
      add(
        groups,
        heading,
        [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!),
      );
  }
  return groups;
}

function exampleGroups(): Groups {
  const groups: Groups = [];
  let heading: string | null = null;
  for (const line of readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8').split('\n')) {
    const title = /^# ── (.*) ──$/.exec(line);
    if (title) heading = title[1]!;
    const name = /^#?([A-Z][A-Z0-9_]*)=/.exec(line)?.[1];
    if (name) {
      if (heading === null) throw new Error(`.env.example names ${name} before any group`);
      add(groups, heading, [name]);
    }
  }
  return groups;
}

describe('.env.example', () => {
  it('names every documented setting, grouped and ordered as docs/operations.md', () => {
    const documented = documentedGroups();
    expect(documented.flatMap(([, names]) => names).length).toBeGreaterThan(80);
    expect(exampleGroups()).toEqual(documented);
  });

  it('changes nothing when copied as it is: every setting is commented out', () => {
    const lines = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8').split('\n');
    expect(lines.filter((l) => /^[A-Z][A-Z0-9_]*=/.test(l))).toEqual([]);
  });
});
