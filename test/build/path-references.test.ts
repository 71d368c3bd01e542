// Every repository path a comment (server/, widget/, demo/, test/, .ci/; code, CSS, HTML, shell, Lua) or a doc (docs/, READMEs,
// CONTRIBUTING) names exists. A file that moves leaves its old name in the comments that pointed at
// it, and nothing else notices; here the old name fails the build. The rules are in path-references.ts,
// each pinned by a case below so the check can fail and does not cry wolf.
import { describe, expect, test } from 'vitest';
import { commentsOf, exists, pathIn, pathsIn, references } from './path-references.ts';

describe('what counts as a path reference', () => {
  test.each([
    ['server/src/relay.ts', 'server/src/relay.ts'],
    ['(lifecycle/job-runner.ts),', 'lifecycle/job-runner.ts'],
    ['`memory/layout.ts`:', 'memory/layout.ts'],
    ['docs/operations.md#redis', 'docs/operations.md'],
    ['server/src/relay.ts:42', 'server/src/relay.ts'],
    ['test/server/limits', 'test/server/limits'],
    ['store/', 'store/'],
    ['limits/redis/', 'limits/redis/'],
    ['main.ts', 'main.ts'],
    ['README.md', 'README.md'],
    ['./index.ts', './index.ts'],
    ['../../server/simulator/index.ts', '../../server/simulator/index.ts'],
  ])('%s names %s', (token, path) => expect(pathIn(token)).toBe(path));

  test.each([
    ['https://example.com/a/b.js', 'a URL'],
    ['node:fs', 'a scheme'],
    ['/api/callback', 'a route'],
    ['/etc/dialback/env.conf', 'an absolute path'],
    ['~/.config/x.json', 'a home path'],
    ['test/**/*.test.ts', 'a glob'],
    ['chunks/ui-<hash>.js', 'a placeholder'],
    ['src/{a,b}.ts', 'a brace list'],
    ['$DATA_DIR/x.db', 'a variable'],
    ['DATA_DIR/hash-secret', 'a first part in capitals'],
    ['@types/node', 'an npm scope'],
    ['dist/widget.js', 'a generated folder'],
    ['node_modules/preact/dist/preact.mjs', 'installed packages'],
    ['and/or', 'prose'],
    ['calls/s', 'a rate'],
    ['Node.js', 'a name ending in .js'],
    ['server/…', 'an ellipsis'],
    ['edfc08b:test/support/x.ts', 'a file in a commit'],
  ])('%s is no path (%s)', (token) => expect(pathIn(token)).toBeUndefined());
});

describe('where a named path may point', () => {
  test.each([
    ['server/src/relay.ts', 'server/src/main.ts', 'from the root'],
    ['server/src/limits/redis/limit-store.ts', 'memory/layout.ts', 'from a folder above the reader'],
    ['test/server/limits/limiter-redis.test.ts', 'limits/redis/limit-store.ts', 'from server/src'],
    ['docs/architecture.md', 'redis/', 'a folder'],
    ['test/build/size.test.ts', 'main.ts', 'a bare name anywhere'],
    ['server/simulator/README.md', './index.ts', 'next to the file'],
    ['server/simulator/README.md', '../../server/simulator/index.ts', 'an example written for a test file'],
  ])('in %s, %s exists (%s)', (file, path) => expect(exists(file, path)).toBe(true));

  test.each([
    ['server/src/relay.ts', 'callback/job-runner.ts'],
    ['server/src/limits/limit-store.ts', 'protect/'],
    ['docs/architecture.md', 'server/src/store/'],
    ['test/build/size.test.ts', 'no-such-file.ts'],
    ['server/simulator/README.md', '../../server/simulator/index.js'],
  ])('in %s, %s does not', (file, path) => expect(exists(file, path)).toBe(false));

  test('a path right after another project name and a possessive is that project’s', () => {
    const text = "after undici's lib/core/errors.js, as server/src/relay.ts does, into WordPress's `wp-content/plugins/`;\nthe relay's\nlimits/redis/limit-store.ts";
    expect(pathsIn(text)).toEqual([
      { line: 0, path: 'server/src/relay.ts' },
      { line: 2, path: 'limits/redis/limit-store.ts' },
    ]);
  });
});

describe('where references are read', () => {
  test('comments of code, not its strings, template literals or regular expressions', () => {
    const text = [
      '// one/a.ts',
      "const s = 'two/b.ts';",
      `const t = \`three/c.ts \${s}\`; /* four/d.ts */`,
      'const r = /five\\/e.ts/;',
      'const j = <div>{/* six/f.ts */}// seven/g.ts</div>; // eight/h.ts',
    ].join('\n');
    const found = commentsOf('x.tsx', text).map((c) => [c.line, c.text]);
    expect(found).toEqual([
      [1, '// one/a.ts'],
      [3, '/* four/d.ts */'],
      [5, '/* six/f.ts */'],
      [5, '// eight/h.ts'],
    ]);
  });

  test('css, html, shell and Lua comments', () => {
    expect(commentsOf('a.css', 'a { color: red } /* one/a.ts */').map((c) => c.text)).toEqual(['/* one/a.ts */']);
    expect(commentsOf('a.html', '<p>two/b.ts</p><!-- one/a.ts -->').map((c) => c.text)).toEqual(['<!-- one/a.ts -->']);
    expect(commentsOf('.ci/run', 'echo two/b.ts\n# one/a.ts').map((c) => c.text)).toEqual(['# one/a.ts']);
    expect(commentsOf('a.lua', "local s = 'x'\n--#include one/a.lua").map((c) => c.text)).toEqual(['--#include one/a.lua']);
  });
});

test('every path a comment or a doc names exists', () => {
  const all = references();
  // The check reads what it should: hundreds of references, from code and from docs.
  expect(all.length).toBeGreaterThan(500);
  expect(all.some((r) => r.file.startsWith('docs/'))).toBe(true);
  expect(all.some((r) => r.file.startsWith('server/src/'))).toBe(true);
  const dead = all.filter((r) => !r.exists).map((r) => `${r.file}:${r.line} names ${r.path}`);
  expect(dead).toEqual([]);
});
