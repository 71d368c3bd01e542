// Small static file sets held in memory with their compressed forms, computed once at startup:
// the widget is fetched by every visitor of every site, so each request is a map lookup, with a
// strong ETag for revalidation and brotli/gzip chosen by Accept-Encoding.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep, extname } from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Reply } from './reply.ts';

const contentTypes: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  '.ico': 'image/x-icon',
};

interface StaticFile {
  raw: Buffer;
  gzip: Buffer | null;
  br: Buffer | null;
  etag: string;
  type: string;
}

export interface StaticSet {
  /** Relative paths with forward slashes, e.g. `widget.js`, `chunks/ui-abc.js`. */
  readonly paths: readonly string[];
  reply(req: IncomingMessage, path: string, headers: Record<string, string>): Reply | null;
}

/** Every file below `dir`, except dotfiles and dot-folders (.env, .git, editor files): never served. */
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name.startsWith('.')) return [];
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

export function loadStaticSet(dir: string): StaticSet {
  const files = new Map<string, StaticFile>();
  let entries: string[] = [];
  try {
    entries = walk(dir);
  } catch {
    entries = []; // missing directory: an empty set; callers say what is missing
  }
  for (const full of entries) {
    const raw = readFileSync(full);
    const type = contentTypes[extname(full)] ?? 'application/octet-stream';
    const compressible = /javascript|css|html|svg|json/.test(type) && raw.length > 256;
    files.set(relative(dir, full).split(sep).join('/'), {
      raw,
      gzip: compressible ? gzipSync(raw, { level: 9 }) : null,
      br: compressible ? brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }) : null,
      etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 22)}"`,
      type,
    });
  }

  return {
    paths: [...files.keys()],
    reply(req, path, headers) {
      const file = files.get(path);
      if (!file) return null;
      const common = { ...headers, etag: file.etag, vary: 'Accept-Encoding', 'content-type': file.type };
      const inm = req.headers['if-none-match'];
      if (inm?.split(',').some((t) => t.trim() === file.etag)) return { status: 304, headers: common };
      const accepts = String(req.headers['accept-encoding'] ?? '');
      if (file.br && /\bbr\b/.test(accepts)) return { status: 200, body: file.br, headers: { ...common, 'content-encoding': 'br' } };
      if (file.gzip && /\bgzip\b/.test(accepts)) return { status: 200, body: file.gzip, headers: { ...common, 'content-encoding': 'gzip' } };
      return { status: 200, body: file.raw, headers: common };
    },
  };
}
