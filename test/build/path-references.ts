// The repository paths that comments and docs name, for the test next to this file (its cases show
// each rule). A comment drifts silently when the file it names moves; this makes the drift a failing
// test. What counts as a reference is written once, in `pathIn`; where it may point, in `exists`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';

export const repoRoot = join(import.meta.dirname, '../..');

// Where comments are read (code files) and where whole texts are read (docs).
const codeRoots = ['server', 'widget', 'demo', 'test', '.ci'];
const codeFile = /\.(?:ts|tsx|js|mjs|css|html|lua)$|^\.ci\/run$/;
const docFile = /(?:^|\/)(?:README[^/]*|CONTRIBUTING[^/]*|readme\.txt)$|^docs\/[^/]+\.md$/;
const skippedFolders = new Set(['node_modules', 'dist', 'coverage', 'data', '.git']);

// The extensions that make a token a file name.
const extensions = ['ts', 'tsx', 'js', 'mjs', 'lua', 'md', 'json', 'css', 'html', 'yml', 'yaml', 'tpl', 'php', 'conf', 'txt', 'sh'];
// A bare name (no `/`) counts only with these, so "Node.js" and "package.json"-like words in prose are not misread.
const bareExtensions = ['ts', 'tsx', 'lua', 'md', 'mjs'];
// Generated or outside the tree: named often, never in the repository.
const generated = /^(?:\.\/)?(?:dist|node_modules|coverage|data)\//;

// "undici's lib/core/errors.js": a path right after another project's name and a possessive is that project's.
const foreignOwner = /\b[\w-]+['’]s\s+[`'"(]*$/;

export type Reference = { file: string; line: number; path: string };

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(join(repoRoot, dir))) {
    if (skippedFolders.has(name)) continue;
    const rel = dir ? `${dir}/${name}` : name;
    if (statSync(join(repoRoot, rel)).isDirectory()) walk(rel, out);
    else out.push(rel);
  }
  return out;
}

/** The repository's files that are read: code files (comments only) and docs (whole text). */
export function scannedFiles(): { code: string[]; docs: string[] } {
  const all = walk('', []);
  return {
    code: all.filter((f) => codeRoots.some((r) => f.startsWith(`${r}/`)) && codeFile.test(f)),
    docs: all.filter((f) => docFile.test(f)),
  };
}

/** The comments of a code file, each with the line it starts on. */
export function commentsOf(file: string, text: string): { line: number; text: string }[] {
  if (file.endsWith('.css')) return blockComments(text, /\/\*[\s\S]*?\*\//g);
  if (file.endsWith('.html')) return [...blockComments(text, /<!--[\s\S]*?-->/g), ...blockComments(text, /\/\*[\s\S]*?\*\//g), ...lineComments(text, /(?:^|\s)\/\/.*$/gm)];
  if (file.endsWith('.lua')) return lineComments(text, /--.*$/gm);
  if (!/\.(?:ts|tsx|js|mjs)$/.test(file)) return lineComments(text, /^\s*#.*$/gm);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const seen = new Set<number>();
  const ranges: { pos: number; end: number }[] = [];
  const take = (found: ts.CommentRange[] | undefined) => {
    for (const r of found ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      ranges.push(r);
    }
  };
  // Between JSX tags, text is no trivia: no comment is read after a tag or a child there, and an
  // empty `{…}` holds a comment.
  const visit = (node: ts.Node, inJsx: boolean) => {
    if (ts.isJsxExpression(node) && !node.expression) ranges.push({ pos: node.getStart(source) + 1, end: node.end - 1 });
    if (!ts.isJsxText(node)) take(ts.getLeadingCommentRanges(text, node.pos));
    if (!inJsx && !ts.isJsxOpeningElement(node) && !ts.isJsxOpeningFragment(node)) take(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, (child) => visit(child, ts.isJsxElement(node) || ts.isJsxFragment(node)));
  };
  visit(source, false);
  take(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return ranges.sort((a, b) => a.pos - b.pos).map((r) => ({ line: source.getLineAndCharacterOfPosition(r.pos).line + 1, text: text.slice(r.pos, r.end) }));
}

function blockComments(text: string, pattern: RegExp) {
  return [...text.matchAll(pattern)].map((m) => ({ line: lineAt(text, m.index), text: m[0] }));
}
const lineComments = blockComments;
const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

// A token: a run of the characters a path is made of, and of the ones that mark a token as no path
// (a glob, a placeholder, a scheme, a variable).
const token = /[\w.\-/*{}<>$~:@[\]…]+/g;

/**
 * The path a token names, or undefined when it names none. The rules, in order:
 *  - trailing punctuation (`.`, `,`, `:`, `)`…), a `#anchor` and a `:line` suffix are cut off;
 *  - no path: a URL or scheme (`https://`, `node:fs`), an absolute or home path (`/api/callback`,
 *    `/etc/…`, `~/…`), a glob or placeholder (`*`, `{…}`, `<…>`, `$X`, `…`), an npm scope (`@types/node`),
 *    a first part in capitals (`DATA_DIR/hash-secret`), a generated folder (`dist/`, `node_modules/`);
 *  - a path: `<folder>/<name>.<ext>` with a known extension, a folder `<a>/<b>/` (ending in `/`,
 *    lowercase parts), a path whose first part is a top folder (`server/…`, `test/…`), or a bare file
 *    name with a code or doc extension (`main.ts`, `README.md`).
 */
export function pathIn(raw: string): string | undefined {
  let t = raw
    .replace(/[.,;:)'"`\]]+$/, '')
    .replace(/#.*$/, '')
    .replace(/:\d+(?::\d+)?$/, '');
  t = t.replace(/^[('"`[]+/, '');
  if (!t || /[*{}<>$~…[\]]/.test(t) || t.includes(':') || t.startsWith('/') || t.startsWith('@')) return undefined;
  if (generated.test(t)) return undefined;
  const parts = t.split('/');
  if (/^[A-Z][A-Z0-9_]*$/.test(parts[0]!)) return undefined;
  const last = parts.at(-1)!;
  const ext = /\.([a-z]+)$/.exec(last)?.[1];
  if (parts.length === 1) return ext && bareExtensions.includes(ext) && /^[\w.-]+$/.test(t) && !/^\./.test(t) ? t : undefined;
  if (parts.some((p, i) => p === '' && i !== parts.length - 1)) return undefined;
  if (!parts.every((p) => /^[\w.-]*$/.test(p))) return undefined;
  if (ext && extensions.includes(ext)) return t;
  if (last === '' && parts.slice(0, -1).every((p) => /^[a-z0-9_.-]+$/.test(p))) return t;
  if (topFolders.has(parts[0]!)) return t;
  return undefined;
}

const topFolders = new Set(['server', 'widget', 'demo', 'test', 'docs', '.ci']);

let tails: Set<string> | undefined;
/** Every tail of every path in the repository: a file `<a>/<b>/<c>` gives `<c>`, `<b>/<c>`, `<a>/<b>/<c>`, and its folders likewise. */
function repoTails(): Set<string> {
  if (tails) return tails;
  tails = new Set();
  for (const file of walk('', [])) {
    const parts = file.split('/');
    for (let end = 1; end <= parts.length; end++) for (let start = 0; start < end; start++) tails.add(parts.slice(start, end).join('/'));
  }
  return tails;
}

/**
 * Whether a path named in `file` exists: a path that starts with `./` or `../` from the file's own
 * folder; any path when it is the tail of a path in the repository, so `memory/layout.ts` may be
 * written relative to whichever folder the reader is in (`server/src/limits/`) and a bare name
 * anywhere. Leading `./` and `../` are dropped for that second look (an example written for another folder).
 */
export function exists(file: string, path: string): boolean {
  if (/^\.\.?\//.test(path) && existsSync(join(repoRoot, dirname(file), path))) return true;
  const tail = path.replace(/^(?:\.\.?\/)+/, '').replace(/\/$/, '');
  return repoTails().has(normalize(tail));
}

/** The paths a text names, each with its line (0 for the text's first). */
export function pathsIn(text: string): { line: number; path: string }[] {
  return text.split('\n').flatMap((l, line) =>
    [...l.matchAll(token)].flatMap((m) => {
      const path = foreignOwner.test(l.slice(0, m.index)) ? undefined : pathIn(m[0]);
      return path ? [{ line, path }] : [];
    }),
  );
}

/** Every path reference in comments and docs, with whether it exists. */
export function references(): (Reference & { exists: boolean })[] {
  const { code, docs } = scannedFiles();
  const texts = [
    ...code.flatMap((file) => commentsOf(file, readFileSync(join(repoRoot, file), 'utf8')).map((c) => ({ file, ...c }))),
    ...docs.map((file) => ({ file, line: 1, text: readFileSync(join(repoRoot, file), 'utf8') })),
  ];
  return texts.flatMap(({ file, line, text }) => pathsIn(text).map((p) => ({ file, line: line + p.line, path: p.path, exists: exists(file, p.path) })));
}
