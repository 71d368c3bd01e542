import { defineConfig } from 'vitest/config';
import { classicScriptEntry } from './widget/build/classic-script.ts';

// One config for two jobs:
//  - `vite build` bundles the widget: a tiny script-tag entry (dist/widget/widget.js) and lazily
//    imported chunks (dist/widget/chunks/*), served by the relay.
//  - `vitest run` runs every test under test/: node tests, widget component tests in jsdom,
//    and end-to-end tests in real Chromium.
export default defineConfig({
  plugins: [classicScriptEntry()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2020',
    minify: true,
    sourcemap: false,
    modulePreload: false,
    rolldownOptions: {
      input: { widget: 'widget/src/loader.ts' },
      output: {
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
        assetFileNames: 'chunks/[name]-[hash][extname]',
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
