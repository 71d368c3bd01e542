import { defineConfig } from 'vitest/config';
import { classicScriptEntry } from './widget/build/classic-script.ts';

// One config for two jobs:
//  - `vite build` bundles the widget: a tiny script-tag entry (dist/widget/widget.js) and lazily
//    imported chunks (dist/widget/chunks/*), served by the relay.
//  - `vitest run` runs every test under test/: node tests, widget component tests in jsdom,
//    and end-to-end tests in real Chromium.
export default defineConfig({
  plugins: [classicScriptEntry()],
  // The classic JSX transform: h(type, props, ...children), with `h` imported in each .tsx. The
  // automatic runtime's jsx() cost the UI chunk 148 B gzip more (its module, and children carried
  // in every props object).
  oxc: { jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' } },
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    modulePreload: false,
    rolldownOptions: {
      input: { widget: 'widget/src/loader.ts' },
      // The entry must receive the UI chunk's own exports from import(): a chunk that also exports
      // code shared with other chunks is handed over as a namespace object built with `for…in`,
      // which dies on pages that add enumerable properties to Object.prototype. So the shared code
      // lives in the 'runtime' chunk (Preact and the modules more than one chunk uses), and the
      // bundler does not merge the UI chunk into its importers' loads.
      experimental: { chunkOptimization: { avoidRedundantChunkLoads: false } },
      output: {
        entryFileNames: '[name].js',
        // Six characters of hash (36 bits, for some 25 files) rather than eight: every chunk name
        // is written in the chunks that import it, ~40 B gzip on one visitor's everything.
        chunkFileNames: 'chunks/[name]-[hash:6].js',
        assetFileNames: 'chunks/[name]-[hash][extname]',
        codeSplitting: { groups: [{ name: 'runtime', test: /node_modules[\\/]preact[\\/]|widget[\\/]src[\\/]ui[\\/](CallUsLink|fields|i18n[\\/]format)\./ }] },
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/server/**/*.test.ts', 'test/simulator/**/*.test.ts', 'test/build/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'widget',
          environment: 'jsdom',
          include: ['test/widget/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});
