// Small static file sets held in memory with their compressed forms, computed once at startup:
// the widget is fetched by every visitor of every site, so each request is a map lookup, with
// brotli/gzip chosen by Accept-Encoding and a strong ETag per representation: the brotli, gzip and
// plain bytes differ, and a strong validator names one sequence of bytes (RFC 9110 8.8.3), so a
// cache holding one coding is never told its bytes are those of another.
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

/** One stored form of a file: its bytes, its content coding (none for the file itself), its ETag. */
interface Representation {
  body: Buffer;
  coding: 'br' | 'gzip' | null;
  etag: string;
}

interface StaticFile {
  raw: Representation;
  gzip: Representation | null;
  br: Representation | null;
  type: string;
}

/** If-None-Match matches with the weak comparison (RFC 9110 13.1.2): W/ is ignored, `*` matches any. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || (t.startsWith('W/') ? t.slice(2) : t) === etag;
  });
}

export interface StaticSet {
  /** Relative paths with forward slashes, e.g. `widget.js`, `chunks/ui-<hash>.js`. */
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

/**
 * Compressed forms by the file's full SHA-256: brotli at quality 11 costs ~0.2 s for the widget, and
 * one process may build many relays over the same files (the tests build hundreds), so each content
 * is compressed once. Keyed by content, a changed file is compressed anew; old entries stay (a
 * handful of small files per build).
 */
const codings = new Map<string, { gzip: Buffer; br: Buffer }>();

function compress(raw: Buffer, digest: string): { gzip: Buffer; br: Buffer } {
  let known = codings.get(digest);
  if (!known) {
    known = { gzip: gzipSync(raw, { level: 9 }), br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }) };
    codings.set(digest, known);
  }
  return known;
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
    const compressible = /javascript|css|html|svg|json/.test(type);
    const digest = createHash('sha256').update(raw).digest('base64url');
    const tag = digest.slice(0, 22);
    // Each coding only where it is smaller than the file itself (a widget chunk of 250 B still gains a third).
    const coded = (coding: 'gzip' | 'br', body: Buffer): Representation | null => (body.length < raw.length ? { body, coding, etag: `"${tag}-${coding}"` } : null);
    const forms = compressible ? compress(raw, digest) : null;
    files.set(relative(dir, full).split(sep).join('/'), {
      raw: { body: raw, coding: null, etag: `"${tag}"` },
      gzip: forms ? coded('gzip', forms.gzip) : null,
      br: forms ? coded('br', forms.br) : null,
      type,
    });
  }

  return {
    paths: [...files.keys()],
    reply(req, path, headers) {
      const file = files.get(path);
      if (!file) return null;
      const accepts = String(req.headers['accept-encoding'] ?? '');
      const chosen = (file.br && /\bbr\b/.test(accepts) && file.br) || (file.gzip && /\bgzip\b/.test(accepts) && file.gzip) || file.raw;
      const common = { ...headers, etag: chosen.etag, vary: 'Accept-Encoding', 'content-type': file.type };
      if (matches(req.headers['if-none-match'], chosen.etag)) return { status: 304, headers: common };
      return { status: 200, body: chosen.body, headers: chosen.coding ? { ...common, 'content-encoding': chosen.coding } : common };
    },
  };
}
