// Build plugin: dist/widget/widget.js must run as a CLASSIC <script async> on any site, yet load its
// lazy chunks with import(). Three things in Vite's default ES output stand in the way:
//  1. The dynamic-import preload helper uses `import.meta.url` (a syntax error outside modules) and
//     dispatches `vite:preloadError` on the host's window, which a host built with Vite may answer by
//     reloading the page. Our chunks have no CSS or shared dependencies to preload, so the helper is
//     replaced by a plain call, and each chunk gets its own copy instead of importing it from the
//     entry (an entry with exports cannot be a classic script).
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
 * `__vitePreload(() => EXPR, [])` → `(EXPR)`: with nothing to preload the wrapper is only bytes.
 * Parentheses are balanced by counting (the wrapped expressions hold no strings with parentheses:
 * they are import() of our own chunk files and short callbacks).
 */
export function unwrapPreloadCalls(code: string): string {
  const opener = '__vitePreload(() => ';
  let out = '';
  let from = 0;
  for (let at = code.indexOf(opener); at >= 0; at = code.indexOf(opener, from)) {
    let depth = 1;
    let i = at + '__vitePreload('.length;
    for (; i < code.length && depth > 0; i++) depth += code[i] === '(' ? 1 : code[i] === ')' ? -1 : 0;
    const call = code.slice(at, i); // through the closing parenthesis
    const inner = /^__vitePreload\(\(\) => ([\s\S]*), \[\]\)$/.exec(call)?.[1];
    out += code.slice(from, at) + (inner === undefined ? call : `(${inner})`);
    from = i;
  }
  return out + code.slice(from);
}

export function classicScriptEntry(): Plugin {
  return {
    name: 'dialback:classic-script-entry',
    enforce: 'post',
    transform(_code, id) {
      if (id === preloadHelperId) return { code: `export const __vitePreload = ${helper};`, map: null };
      return null;
    },
    renderChunk(original, chunk) {
      const code = unwrapPreloadCalls(original);
      const next = chunk.isEntry
        ? code.replace(/export\s*\{\s*__vitePreload as \w+\s*\};?/, '')
        : code.replace(/import\s*\{\s*\w+ as __vitePreload\s*\}\s*from\s*["'][^"']*\.js["'];?/, code.includes('__vitePreload(') ? `const __vitePreload = ${helper};` : '');
      return next === original ? null : { code: next, map: null };
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
        const problems = [
          /\bimport\.meta\b/.test(chunk.code) && 'import.meta',
          /(^|[;}\s])import\s*[\w{*]/.test(chunk.code) && 'a static import',
          /(^|[;}\s])export\s*[\w{*]/.test(chunk.code) && 'an export',
        ].filter(Boolean);
        if (problems.length) this.error(`${chunk.fileName} must run as a classic script but contains ${problems.join(', ')}`);
        const code = chunk.code.replace(/\bimport\((["'`])(\.\/[^"'`]+)\1\)/g, (_m, quote: string, path: string) => `import(new URL(${quote}${path}${quote},__dialbackScriptUrl).href)`);
        const prologue = 'var __dialbackScriptUrl=document.currentScript&&document.currentScript.src||location.href;';
        chunk.code = `(function(){"use strict";${prologue}${code}\n})();\n`;
      }
    },
  };
}
