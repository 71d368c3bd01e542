// Sizes of the built widget (dist/widget), gzip-compressed as the relay and CDNs send them. Shared by
// the size test and the page-load benchmark so both report the same figures.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const distDir = join(import.meta.dirname, '../../dist/widget');

export interface BuiltFile {
  file: string;
  bytes: number;
  gzip: number;
}

export function builtFiles(): BuiltFile[] {
  const files = ['widget.js', ...readdirSync(join(distDir, 'chunks')).map((f) => `chunks/${f}`)];
  return files.map((file) => {
    const content = readFileSync(join(distDir, file));
    return { file, bytes: content.length, gzip: gzipSync(content, { level: 9 }).length };
  });
}

export interface WidgetSizes {
  entry: BuiltFile;
  /** The Preact UI chunk (mount-*.js). */
  ui: BuiltFile;
  attribution: BuiltFile;
  catalogs: BuiltFile[];
  /** What one visitor can ever download: entry, UI, attribution and the largest language catalog. */
  perVisitor: number;
  /** Every file in dist/widget. */
  all: number;
}

export function widgetSizes(): WidgetSizes {
  const files = builtFiles();
  const find = (prefix: string) => {
    const match = files.find((f) => f.file.startsWith(prefix));
    if (!match) throw new Error(`dist/widget has no ${prefix}*: run \`npm run build\``);
    return match;
  };
  const entry = find('widget.js');
  const ui = find('chunks/mount-');
  const attribution = find('chunks/attribution-');
  const catalogs = files.filter((f) => /^chunks\/(en|uk|ru|pl|de)-/.test(f.file));
  const largestCatalog = Math.max(...catalogs.map((c) => c.gzip));
  return {
    entry,
    ui,
    attribution,
    catalogs,
    perVisitor: entry.gzip + ui.gzip + attribution.gzip + largestCatalog,
    all: files.reduce((sum, f) => sum + f.gzip, 0),
  };
}
