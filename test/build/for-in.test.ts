// A page that adds enumerable properties to Object.prototype (old plugins do) feeds them to every
// `for…in` over a plain object. The bundler's namespace helper walked an import namespace that way
// and died at the first click ("Getter must be a function: 1"). The built widget may only keep the
// loops reviewed below, each over an object its own code created and filled:
//  - mount (the UI chunk, with Preact): Preact's props and style objects of its own vnodes, defaultProps, its assign();
//    foreign keys there become at most an extra attribute, as the hostile-page e2e tests show.
//  - opened (the attribution reader): js-cookie's assign() and the attribute loop of its set(), run
//    only by its writers (set, remove, withAttributes, withConverter); the widget only calls
//    Cookies.get, whose loop is over the cookie string's parts (and assign() skips __proto__).
// Any other for…in, in any chunk, fails here: review it against a polluted Object.prototype, then
// add it with its reason.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { builtFiles, distDir } from '../support/widget-size.ts';

const reviewed: Record<string, number> = { mount: 7, opened: 2 };
const forIn = /for\((?:var |let |const )?[\w$]+ in [^)]*\)/g;

test('the built widget has no for…in but the reviewed ones, and none that defines getters', () => {
  const found: Record<string, number> = {};
  for (const { file } of builtFiles()) {
    const code = readFileSync(join(distDir, file), 'utf8');
    const loops = [...code.matchAll(forIn)];
    if (!loops.length) continue;
    const kind = file.replace(/^chunks\//, '').replace(/-[\w-]+\.js$/, '');
    found[kind] = loops.length;
    // The namespace helper's shape: a for…in whose body defines accessors.
    for (const loop of loops) expect(code.slice(loop.index, loop.index + 80), file).not.toMatch(/\{get:/);
  }
  expect(found).toEqual(reviewed);
});
