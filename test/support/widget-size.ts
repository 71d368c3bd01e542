// Sizes of the built widget (dist/widget), gzip-compressed as the relay and CDNs send them. Shared by
// the size test and the page-load benchmark so both report the same figures.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { IncomingMessage } from 'node:http';
import { loadStaticSet } from '../../server/src/http/static-files.ts';

export const distDir = join(import.meta.dirname, '../../dist/widget');

/** The gzip budgets (bytes): the size test enforces them, the page-load benchmark prints them. */
export const budgets = {
  /** widget.js, on every page view. */
  entry: 3 * 1024,
  /** The Preact UI chunk with its static imports, fetched on the visitor's first intent. */
  ui: 12 * 1024,
  /** Everything one visitor can ever load, in the bytes the relay sends (see WidgetSizes.perVisitor). */
  perVisitor: 25 * 1024,
  /** The "call me later" picker with the chunks it imports beyond the UI's, fetched only when the visitor may book a time. */
  schedule: 4 * 1024,
  /** The invitation's first chunk, fetched at idle only when the script tag has data-invite. */
  invite: 1536,
};

export interface BuiltFile {
  file: string;
  bytes: number;
  gzip: number;
  /** The body the relay sends a browser that accepts brotli (every browser the widget supports, over HTTPS): the relay's own static-file code decides. */
  sent: number;
}

export function builtFiles(): BuiltFile[] {
  const files = ['widget.js', ...readdirSync(join(distDir, 'chunks')).map((f) => `chunks/${f}`)];
  const served = loadStaticSet(distDir);
  const browser = { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } } as unknown as IncomingMessage;
  return files.map((file) => {
    const content = readFileSync(join(distDir, file));
    const reply = served.reply(browser, file, {});
    if (!reply?.body) throw new Error(`the relay does not serve ${file}`);
    return { file, bytes: content.length, gzip: gzipSync(content, { level: 9 }).length, sent: (reply.body as Buffer).length };
  });
}

/** Chunks a built file imports statically (`import … from "../<chunk>.js"`), transitively. */
export function staticImports(file: string, seen = new Set<string>()): Set<string> {
  const code = readFileSync(join(distDir, file), 'utf8');
  for (const [, spec] of code.matchAll(/(?:^|[;}\n])\s*import\s*[\w{*][^"'`]*?from\s*["'`](\.\/[^"'`]+)["'`]/g)) {
    const target = join(file, '..', spec!).replace(/\\/g, '/');
    if (!seen.has(target)) {
      seen.add(target);
      staticImports(target, seen);
    }
  }
  return seen;
}

export interface WidgetSizes {
  entry: BuiltFile;
  /** The Preact UI chunk (mount-*.js, Preact inside it) with any chunk it imports statically. */
  ui: { files: string[]; gzip: number };
  catalogs: BuiltFile[];
  /** Chunks fetched only when needed: the consent checkbox, Turnstile, country names, the call (the request and its progress), opening hours, the picker, the choice of department, the messenger links, the open beacon with the attribution reader, the tracking-consent code, the invitation and its bubble. */
  optional: BuiltFile[];
  /** The picker (schedule-*.js) with the chunks it imports statically that the UI has not loaded already (opening hours). */
  schedule: { files: string[]; gzip: number };
  /**
   * The invitation: its first chunk (at idle, with data-invite), the bubble with the caps' memory
   * (when a trigger first fires, or at once for pages:N) and the tracking-consent code that memory
   * asks; its words come with the visitor's language catalog, which the dialog then finds loaded.
   */
  invite: { idle: number; bubble: number; consent: number; total: number };
  /**
   * Everything one visitor can ever load: every file but the other languages' catalogs, in the bytes the relay sends (brotli; gzip only to a browser that does not take brotli).
   */
  perVisitor: number;
  /** The same files, every one gzip-compressed (a browser without brotli, or a CDN that only gzips). */
  perVisitorGzip: number;
  /** Every file in dist/widget. */
  all: number;
}

export function widgetSizes(): WidgetSizes {
  const files = builtFiles();
  const entry = files.find((f) => f.file === 'widget.js');
  const mount = files.find((f) => f.file.startsWith('chunks/mount-'));
  if (!entry || !mount) throw new Error('dist/widget is incomplete: run `npm run build`');
  const uiFiles = [mount.file, ...staticImports(mount.file)];
  const catalogs = files.filter((f) => /^chunks\/[a-z]{2}-/.test(f.file));
  const gzipOf = (prefix: string) => files.find((f) => f.file.startsWith(prefix))?.gzip ?? 0;
  const largest = (list: BuiltFile[], size = (f: BuiltFile) => f.gzip) => Math.max(0, ...list.map(size));
  const invite = { idle: gzipOf('chunks/invite-'), bubble: gzipOf('chunks/show-'), consent: gzipOf('chunks/consent-') };
  const picker = files.find((f) => f.file.startsWith('chunks/schedule-'));
  const scheduleFiles = picker ? [picker.file, ...staticImports(picker.file)].filter((f) => !uiFiles.includes(f)) : [];
  const all = files.reduce((sum, f) => sum + f.gzip, 0);
  // One language: the largest catalog counts, the others not.
  const perVisitor = (size: (f: BuiltFile) => number) => files.filter((f) => !catalogs.includes(f)).reduce((sum, f) => sum + size(f), 0) + largest(catalogs, size);
  return {
    entry,
    ui: { files: uiFiles, gzip: files.filter((f) => uiFiles.includes(f.file)).reduce((sum, f) => sum + f.gzip, 0) },
    catalogs,
    optional: files.filter((f) => f !== entry && !uiFiles.includes(f.file) && !catalogs.includes(f)),
    schedule: { files: scheduleFiles, gzip: files.filter((f) => scheduleFiles.includes(f.file)).reduce((sum, f) => sum + f.gzip, 0) },
    invite: { ...invite, total: invite.idle + invite.bubble + invite.consent },
    perVisitor: perVisitor((f) => f.sent),
    perVisitorGzip: perVisitor((f) => f.gzip),
    all,
  };
}
