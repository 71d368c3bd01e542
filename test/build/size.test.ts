// Budgets of the built widget (the figures are `budgets` in widget-size.ts, shared with the page-load
// benchmark). `npm test` builds first, then checks dist/widget. Each part's budget is in gzip; the
// total a visitor downloads is counted in the bytes the relay actually sends that visitor's browser:
// brotli, which every browser the widget supports asks for over HTTPS (gzip is printed beside it).
//  - entry (widget.js, on every page view):                         ≤ 3 KB
//  - UI: the Preact UI chunk (Preact itself inside it) and any chunk
//    it imports statically, fetched on the visitor's first intent:   ≤ 12 KB
//  - everything one visitor can ever load, as sent: entry, UI, every optional chunk (the consent
//    checkbox, Turnstile, country names, the call (its request and its progress), opening hours,
//    the picker, the choice of department, the messenger links, the open beacon with the attribution
//    reader, the tracking-consent code, the invitation) and the largest of the language catalogs
//    (with the invitation's words):                                ≤ 25 KB
//  - the "call me later" picker with what it imports beyond the UI,
//    fetched only when the visitor may book a time:                 ≤ 4 KB
//  - the invitation's first chunk, fetched at idle and only when the
//    tag has data-invite (its bubble, memory and words come when it
//    shows, or at once for pages:N):                                ≤ 1.5 KB
// It also checks that the entry can run as a classic script and that no zod and no phone metadata
// reached the browser.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { launcherText } from '../../widget/src/launcher-text.ts';
import { budgets, builtFiles, distDir, widgetSizes } from '../support/widget-size.ts';

const KB = 1024;
const languages = Object.keys(launcherText);
const sizes = widgetSizes();
const read = (file: string) => readFileSync(join(distDir, file), 'utf8');

describe('widget budgets', () => {
  test('the build has an entry, one UI chunk with Preact in it, a catalog for each of the twelve languages and the optional parts', () => {
    expect(sizes.ui.files).toHaveLength(1);
    expect(sizes.catalogs.map((c) => c.file.replace(/^chunks\/(\w+)-.*$/, '$1')).sort()).toEqual([...languages].sort());
    expect(sizes.optional.map((f) => f.file.replace(/^chunks\/(\w+)-.*$/, '$1')).sort()).toEqual([
      'ConsentField',
      'Messengers',
      'Turnstile',
      'consent',
      'departments',
      'invite',
      'names',
      'opened',
      'opening',
      'progress',
      'schedule',
      'show',
    ]);
    // The invitation's words are in the language catalogs (the invitation fetches the visitor's, which the dialog it opens then finds).
    expect(builtFiles().filter((f) => new RegExp(`^chunks/invite-(${languages.join('|')})-`).test(f.file))).toHaveLength(0);
  });

  test(`entry widget.js ≤ ${budgets.entry / KB} KB (is ${sizes.entry.gzip} B)`, () => {
    expect(sizes.entry.gzip).toBeLessThanOrEqual(budgets.entry);
  });

  test(`UI chunk with its static imports ≤ ${budgets.ui / KB} KB (is ${sizes.ui.gzip} B)`, () => {
    expect(sizes.ui.gzip).toBeLessThanOrEqual(budgets.ui);
  });

  test(`the "call me later" picker with what it imports beyond the UI ≤ ${budgets.schedule / KB} KB (is ${sizes.schedule.gzip} B)`, () => {
    expect(sizes.schedule.files.map((f) => f.replace(/^chunks\/(\w+)-.*$/, '$1')).sort()).toEqual(['opening', 'schedule']);
    expect(sizes.schedule.gzip).toBeLessThanOrEqual(budgets.schedule);
  });

  test(`the invitation's first chunk, fetched at idle when the tag has data-invite, ≤ ${budgets.invite / KB} KB (is ${sizes.invite.idle} B; with its bubble and the consent code ${sizes.invite.total} B)`, () => {
    expect(sizes.invite.idle).toBeGreaterThan(0);
    expect(sizes.invite.idle).toBeLessThanOrEqual(budgets.invite);
  });

  test(`everything one visitor can ever load, as the relay sends it, ≤ ${budgets.perVisitor / KB} KB (is ${sizes.perVisitor} B; ${sizes.perVisitorGzip} B all in gzip)`, () => {
    expect(sizes.perVisitor).toBeLessThanOrEqual(budgets.perVisitor);
  });
});

describe('what reaches the browser', () => {
  test('the entry is a classic script: no static import or export, no import.meta, wrapped in a function', () => {
    const code = read('widget.js');
    expect(code.startsWith('(function(__u){')).toBe(true);
    expect(code).not.toMatch(/\bimport\.meta\b/);
    expect(code).not.toMatch(/(^|[;}])\s*(import|export)\s*[\w{*]/);
  });

  test('the UI chunk asks V8 to compile it on arrival (//# allFunctionsCalledOnLoad, at its very start); no other file does', () => {
    const [ui] = sizes.ui.files;
    expect(read(ui!).startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
    for (const { file } of builtFiles()) if (file !== ui && file.endsWith('.js')) expect(read(file), file).not.toContain('allFunctionsCalledOnLoad');
  });

  test("the entry asks for the visitor's catalog beside the UI chunk, by the name the build gave the catalogs", () => {
    const uiHash = /mount-([\w-]+)\.js$/.exec(sizes.ui.files[0]!)![1];
    expect(read('widget.js')).toContain(`./chunks/\${`);
    expect(read('widget.js')).toMatch(new RegExp(`\\$\\{[\\w$]+\\.lang\\}-${uiHash}\\.js`));
    for (const lang of languages) expect(builtFiles().map((f) => f.file)).toContain(`chunks/${lang}-${uiHash}.js`);
  });

  test("a language's words reach the visitor in its own catalog (and the entry's launcher labels), in no chunk every visitor of every language fetches", () => {
    // Cyrillic letters stand for every language's words (uk, ru and kk write in it): a chunk with a
    // table of all twelve languages would send one visitor eleven they never read.
    const catalogs = new Set(sizes.catalogs.map((c) => c.file));
    for (const { file } of builtFiles()) if (file !== 'widget.js' && !catalogs.has(file)) expect(read(file), file).not.toMatch(/[\u0400-\u04ff]/);
  });

  test("every chunk is named with one hash, the build's (one hash repeated compresses; a hash per chunk did not)", () => {
    const hashes = new Set(builtFiles().flatMap(({ file }) => /^chunks\/[^/]+-([\w-]{6})\.js$/.exec(file)?.[1] ?? []));
    expect(builtFiles().filter(({ file }) => file.startsWith('chunks/')).length).toBeGreaterThan(20);
    expect([...hashes]).toHaveLength(1);
  });

  test('the entry makes chunk URLs absolute from its own address', () => {
    expect(read('widget.js')).toMatch(/import\(new URL\(`\.\/chunks\/mount-[\w-]+\.js`,__u\)\.href\)/);
  });

  test('no zod, no libphonenumber metadata, no preload helper anywhere', () => {
    for (const { file } of builtFiles()) {
      const code = read(file);
      expect(code, file).not.toMatch(/ZodError|\$ZodType|zod/i);
      expect(code, file).not.toMatch(/country_calling_codes|libphonenumber/);
      expect(code, file).not.toMatch(/vite:preloadError/);
    }
  });

  test("the dynamic imports' preload wrapper is gone from every lazy chunk (the UI chunk keeps the unused copy it defined)", () => {
    // Vite's helper, as the build makes it: `h=e=>e()`, a parameter called and returned.
    const helpers = builtFiles().filter(({ file }) => /([\w$]+)=>\1\(\)/.test(read(file)));
    expect(helpers.map((f) => f.file)).toEqual(sizes.ui.files);
  });
});
