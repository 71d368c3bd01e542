// Build plugin: dist/widget/widget.js must run as a CLASSIC <script async> on any site, yet load its
// lazy chunks with import(). Three things in Vite's default ES output stand in the way:
//  1. The dynamic-import preload helper uses `import.meta.url` (a syntax error outside modules) and
//     dispatches `vite:preloadError` on the host's window, which a host built with Vite may answer by
//     reloading the page. Our chunks have no CSS or shared dependencies to preload, so the helper is
//     replaced by a plain call, and each chunk gets its own copy instead of importing it from the
//     entry (an entry with exports cannot be a classic script). In the chunks the calls keep their
//     wrapper (`__vitePreload(() => import(…), …)`) until generateBundle, where Vite has replaced
//     their second argument (its __VITE_PRELOAD__ marker); in the entry they are unwrapped at once.
//  2. Top-level declarations of a classic script become globals (minified names like `e`, `t` would
//     overwrite the host's), and a second copy of the script would fail on redeclared `let`s. The
//     entry is therefore wrapped in a function.
//  3. A classic script loaded from another origin without a crossorigin attribute (the way customers
//     embed it) resolves import() specifiers against about:blank, not against its own URL. The
//     entry's chunk imports are therefore made absolute from the script's own address, read from
//     document.currentScript while the script runs. (Inside the chunks, which are ES modules,
//     relative imports resolve against the chunk's URL as usual.)
// The build fails loudly if the entry still contains anything a classic script cannot run.
import type { Plugin } from 'vite';

const preloadHelperId = '\0vite/preload-helper.js';
const helper = '(load) => load()';

/**
 * `h(()=>import(`./<chunk>.js`).then(…),[])` (or Vite's marker in place of `[]`) → `import(`./<chunk>.js`).then(…)` for every call of the helper `h`,
 * minified or not (`h(() => import("./<chunk>.js"), __VITE_PRELOAD__)`); null when a call does not have that exact shape (the build then keeps the helper).
 */
function unwrapPreloads(code: string, helperName: string): string | null {
  // Only calls that wrap an import(): a minified scope may reuse the helper's name for a local.
  const opens = new RegExp(`${helperName.replace(/\$/g, '\\$')}\\(\\(\\)\\s*=>\\s*import\\(`, 'g');
  let out = '';
  let from = 0;
  for (let match = opens.exec(code); match; match = opens.exec(code)) {
    const at = match.index;
    if (/[\w$.]/.test(code[at - 1] ?? '')) return null; // part of a longer name
    let depth = 0;
    let i = at + match[0].length - 'import('.length;
    for (; i < code.length; i++) {
      const ch = code[i]!;
      if (ch === '`' || ch === '"' || ch === "'")
        i = code.indexOf(ch, i + 1); // specifiers and plain strings only
      else if (ch === '(' || ch === '{' || ch === '[') depth++;
      else if (ch === ')' || ch === '}' || ch === ']') {
        if (depth === 0) break;
        depth--;
      } else if (ch === ',' && depth === 0) break;
      if (i < 0) return null;
    }
    // The second argument is still Vite's marker here (Vite writes the list after this hook); with
    // modulePreload off and no CSS in the chunks the list it would write is empty.
    const rest = /^,\s*(?:\[\]|__VITE_PRELOAD__)\)/.exec(code.slice(i))?.[0];
    if (!rest) return null;
    out += code.slice(from, at) + code.slice(at + match[0].length - 'import('.length, i);
    from = i + rest.length;
    opens.lastIndex = from;
  }
  return out + code.slice(from);
}

/** The script-tag entry: the one chunk run as a classic script (the UI chunk is an entry too, an ES module). */
const isClassic = (chunk: { isEntry: boolean; name: string }) => chunk.isEntry && chunk.name === 'widget';

export function classicScriptEntry(): Plugin {
  return {
    name: 'dialback:classic-script-entry',
    enforce: 'post',
    transform(_code, id) {
      if (id === preloadHelperId) return { code: `export const __vitePreload = ${helper};`, map: null };
      return null;
    },
    renderChunk(code, chunk) {
      const importsHelper = /import\s*\{\s*\w+ as __vitePreload\s*\}\s*from\s*["'][^"']*\.js["'];?/;
      // Here, before minifying, the calls can be unwrapped in every chunk: modulePreload is off, so
      // their marker would become an empty list. Once minified, the helper's short name is also
      // taken by the chunk's locals, and could no longer be told from them (each lazy chunk kept an
      // unused copy of it). A comment before a specifier goes with the call.
      let next = code.replace(/__vitePreload\(\(\) => import\(\s*\/\*[^*]*\*\/\s*/g, '__vitePreload(() => import(');
      next = unwrapPreloads(next, '__vitePreload') ?? next;
      if (isClassic(chunk)) next = next.replace(/export\s*\{\s*__vitePreload as \w+\s*\};?/, '');
      next = next.replace(importsHelper, '');
      if (next.includes('__vitePreload(') && !/const __vitePreload\b/.test(next)) next = `const __vitePreload = ${helper};\n${next}`;
      return next === code ? null : { code: next, map: null };
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        // Nothing is ever preloaded (see 1.), so each `helper(() => import(x)…, deps)` can become
        // `import(x)…`, and the helper can go.
        // The helper is declared alone (`const h=e=>e();`) or in a list of declarations
        // (`var a=…,h=e=>e(),b=…`), as the minifier chose.
        const helper = /(\b(?:const|let|var) |,)([\w$]+)=e=>e\(\)([,;])/.exec(chunk.code);
        if (helper) {
          const [declaration, before, name, after] = helper as unknown as [string, string, string, string];
          const unwrapped = unwrapPreloads(chunk.code, name);
          // The helper goes only when nothing calls it any more (a local of the same name in some
          // scope keeps it, which costs a few bytes and breaks nothing).
          const called = unwrapped?.includes(name + '(') && new RegExp(`[^\\w$.]${name.replace(/\$/g, '\\$')}\\(`).test(unwrapped);
          // `var h=e=>e();` goes whole, `,h=e=>e()` loses itself, `var h=e=>e(),b` keeps `var b`.
          if (unwrapped) chunk.code = called ? unwrapped : unwrapped.replace(declaration, before === ',' ? after : after === ',' ? before : '');
        }
        if (!isClassic(chunk)) continue;
        const problems = [
          /\bimport\.meta\b/.test(chunk.code) && 'import.meta',
          /(^|[;}\s])import\s*[\w{*]/.test(chunk.code) && 'a static import',
          /(^|[;}\s])export\s*[\w{*]/.test(chunk.code) && 'an export',
        ].filter(Boolean);
        if (problems.length) this.error(`${chunk.fileName} must run as a classic script but contains ${problems.join(', ')}`);
        // The script's own address, the wrapper's one parameter. Its name is short (every byte of
        // the entry is paid on every page view) but not one the minifier gives its locals: checked.
        const base = '__u';
        if (new RegExp(`(^|[^\\w$])${base}($|[^\\w$])`).test(chunk.code)) this.error(`${chunk.fileName} already uses the name ${base}`);
        const code = chunk.code.replace(/\bimport\((["'`])(\.\/[^"'`]+)\1\)/g, (_m, quote: string, path: string) => `import(new URL(${quote}${path}${quote},${base}).href)`);
        chunk.code = `(function(${base}){"use strict";${code}\n})(document.currentScript?.src||location.href);\n`;
      }
    },
  };
}
