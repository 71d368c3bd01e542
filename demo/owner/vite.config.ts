import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The owner view (/owner) is a small Preact app of its own, built apart from the widget so that
// nothing of it (uPlot, its styles) can land in a chunk every visitor downloads, and so that the
// widget's size budgets and chunk layout stay exactly as they are. `npm run build` runs both.
// Fixed file names (owner.js, owner.css): the relay serves exactly these under /owner with ETags,
// behind the owner's token, and the page's CSP allows only these files ('self').
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/owner/',
  oxc: { jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/owner', import.meta.url)),
    emptyOutDir: true,
    target: 'es2020',
    minify: true,
    sourcemap: false,
    assetsDir: '',
    // No preload helper: it would be an inline polyfill or extra requests for a single bundle.
    modulePreload: false,
    cssCodeSplit: false,
    rolldownOptions: {
      output: { entryFileNames: 'owner.js', chunkFileNames: 'owner-[name]-[hash].js', assetFileNames: 'owner[extname]', codeSplitting: false },
    },
  },
});
