// The demo page's reference (demo/index.html, what a site owner reads first) keeps up with the
// embedding guide (docs/embedding.md, the full reference): every script-tag attribute and every
// command the guide documents is listed on the page, and the page lists nothing the guide does not.
// (It had fallen behind: the invitation, departments and messenger attributes were missing.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '../..');
const guide = readFileSync(join(root, 'docs/embedding.md'), 'utf8');
const demo = readFileSync(join(root, 'demo/index.html'), 'utf8');
const reference = demo.slice(demo.indexOf('id="reference"'), demo.indexOf('</section>', demo.indexOf('id="reference"')));

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

test("the demo's reference lists the guide's script-tag attributes, no more, no fewer", () => {
  const documented = sorted([...guide.matchAll(/^\| `(data-[a-z-]+)` \|/gm)].map((m) => m[1]!));
  const listed = sorted([...reference.matchAll(/<tr><td><code>(data-[a-z-]+)<\/code><\/td>/g)].map((m) => m[1]!));
  expect(documented.length).toBeGreaterThan(10);
  expect(listed).toEqual(documented);
});

test("the demo's reference names every command the guide documents", () => {
  const commands = sorted([...guide.matchAll(/`dialback\('([a-z]+)'/g)].map((m) => m[1]!));
  expect(commands).toEqual(['close', 'consent', 'invite', 'on', 'open']);
  for (const command of commands) expect(reference, command).toContain(`<code>dialback('${command}'`);
});

test("the demo's reference names every event the guide documents", () => {
  const events = sorted([...guide.matchAll(/^\| `dialback:([a-z]+)` \|/gm)].map((m) => m[1]!));
  expect(events.length).toBeGreaterThan(5);
  for (const event of events) expect(reference, event).toContain(`<code>dialback:${event}</code>`);
});
