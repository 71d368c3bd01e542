// Build plugin: every chunk's name carries one hash, the build's, instead of a hash of its own
// (`chunks/progress-<H>.js`, `chunks/mount-<H>.js`, …). The chunks name each other (the UI chunk
// names eleven, each lazy chunk the UI chunk it imports from), and six characters of hash are six
// characters brotli cannot predict; one hash repeated compresses to a reference after its first use
// in a file: 131 B on one visitor's everything, as sent (25,155 → 25,024 B when it came).
//
// Still safe to cache forever (the relay sends chunks as immutable): H is taken over every file's
// content as the bundler wrote it, each naming the others by their own content hashes, so a change
// to any chunk changes H and every name. What it costs: a release that changes one chunk renames
// all of them. It already renamed most: the UI chunk names the lazy chunks (its hash changes with
// theirs) and the catalogs carry the UI chunk's hash (catalog-names.ts); only the few chunks the UI
// chunk does not reach (the invitation's, the consent code) kept their names before.
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

/** `chunks/<name>-<hash>.js`, as the output's chunkFileNames and the catalogs' renaming write them. */
const hashed = /^chunks\/[^/]+-([\w-]{6})\.js$/;

export function oneHash(): Plugin {
  return {
    name: 'dialback:one-hash',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const files = Object.values(bundle).sort((a, b) => (a.fileName < b.fileName ? -1 : 1));
      const text = (f: (typeof files)[number]) => (f.type === 'chunk' ? f.code : String(f.source));
      const build = createHash('sha256');
      for (const f of files) build.update(f.fileName).update('\0').update(text(f)).update('\0');
      const hash = build.digest('base64url').slice(0, 6);
      const old = new Set(files.flatMap((f) => hashed.exec(f.fileName)?.[1] ?? []));
      if (old.size === 0) this.error('no chunk has a hash in its name');
      // Wherever a file names a chunk: `-<hash>.js` (the entry writes the catalogs' as `${lang}-<hash>.js`).
      const literal = (s: string) => s.replace(/[-]/g, '\\$&');
      const names = new RegExp(`-(${[...old].map(literal).join('|')})\\.js(?=["'\`])`, 'g');
      for (const f of files) {
        const code = text(f).replace(names, `-${hash}.js`);
        const fileName = f.fileName.replace(hashed, (name, own: string) => name.slice(0, -own.length - 3) + `${hash}.js`);
        if (fileName === f.fileName) {
          if (f.type === 'chunk') f.code = code;
          else f.source = code;
        } else {
          // (Renaming a chunk in place is not written out: the file goes out as an asset of that name.)
          delete bundle[f.fileName];
          this.emitFile({ type: 'asset', fileName, source: code });
        }
      }
    },
  };
}
