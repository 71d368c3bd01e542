// Build plugin: the chunks the first open runs (the UI chunk and what it imports statically) start
// with V8's `//# allFunctionsCalledOnLoad`. V8 otherwise compiles a function only at its first call:
// the dialog's first render (Preact's diff and our components, nearly all called then) compiled each
// on the main thread inside that render, a large part of its 40–70 ms at 4× CPU. With the hint the
// whole chunk is compiled when it arrives, while the browser still waits for the chunks after it,
// and the render runs code already compiled. Browsers that do not know the comment ignore it.
import type { Plugin } from 'vite';

const hint = '//# allFunctionsCalledOnLoad\n';

export function compileHints(firstOpen: RegExp): Plugin {
  return {
    name: 'dialback:compile-hints',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const ui = chunks.find((c) => c.facadeModuleId && firstOpen.test(c.facadeModuleId));
      if (!ui) this.error(`no chunk has the first open's module (${firstOpen})`);
      // The magic comment counts only at the very start of the file.
      // (Not the entry, which the chunks once imported Vite's preload helper from: a classic script, run at every page load.)
      for (const chunk of chunks) if (chunk === ui || (!chunk.isEntry && ui.imports.includes(chunk.fileName))) chunk.code = hint + chunk.code;
    },
  };
}
