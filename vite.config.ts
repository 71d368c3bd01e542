import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { classicScriptEntry } from './widget/build/classic-script.ts';
import { catalogNames } from './widget/build/catalog-names.ts';
import { compileHints } from './widget/build/compile-hints.ts';
import { oneHash } from './widget/build/one-hash.ts';
import { heavyTestFiles, quickTestFiles } from './test/tools/tiers.ts';

const SERVER_TESTS = ['test/server', 'test/simulator'];

/** A project of node tests; they start servers and processes, so hooks and tests get 30 s. */
function nodeProject(name: string, include: string[], more: { isolate?: boolean; globalSetup?: string[] } = {}): TestProjectInlineConfiguration {
  return { extends: true, test: { name, environment: 'node', include, testTimeout: 30_000, hookTimeout: 30_000, ...more } };
}

// One config for two jobs:
//  - `vite build` bundles the widget: a tiny script-tag entry (dist/widget/widget.js) and lazily
//    imported chunks (dist/widget/chunks/*), served by the relay.
//  - `vitest run` runs every test under test/ in five projects: unit (in-process server and
//    simulator tests), widget (components in jsdom), system (tests that start redis-servers,
//    relays and other processes, or run long), build (dist/) and e2e (real browsers).
export default defineConfig({
  plugins: [
    classicScriptEntry(),
    catalogNames(/widget[\\/]src[\\/]ui[\\/]mount\.tsx$/, /widget[\\/]src[\\/]ui[\\/]i18n[\\/](en|uk|ru|pl|de|cs|ro|lt|lv|et|kk|es)\.ts$/),
    compileHints(/widget[\\/]src[\\/]ui[\\/]mount\.tsx$/),
    // Last: it renames every chunk, after the plugins above have found them by their names.
    oneHash(),
  ],
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
      // The UI chunk is an entry of its own (an ES module, not the classic script), and the code the
      // later chunks share with it (Preact, the fields, the formatter) lives inside it: one request
      // on the first intent instead of two in a row (the UI chunk, then the Preact chunk it named),
      // and ~270 B gzip less than two chunks importing each other. As an entry its exports reach
      // the script tag as the browser's own module namespace: a chunk handed over through the
      // bundler's namespace helper was walked with `for…in`, which dies on pages that add enumerable
      // properties to Object.prototype (test/build/for-in.test.ts).
      input: { widget: 'widget/src/loader.ts', mount: 'widget/src/ui/mount.tsx' },
      preserveEntrySignatures: 'allow-extension',
      output: {
        entryFileNames: (c) => (c.name === 'widget' ? '[name].js' : 'chunks/[name]-[hash:6].js'),
        // Six characters of hash (36 bits, for some 25 files) rather than eight: every chunk name
        // is written in the chunks that import it, ~40 B gzip on one visitor's everything.
        chunkFileNames: 'chunks/[name]-[hash:6].js',
        codeSplitting: {
          groups: [{ name: 'mount', test: /widget[\\/]src[\\/]ui[\\/]mount\.tsx|node_modules[\\/]preact[\\/]|widget[\\/]src[\\/]ui[\\/](CallUsLink|fields|i18n[\\/]format)\./ }],
        },
        assetFileNames: 'chunks/[name]-[hash][extname]',
      },
    },
  },
  test: {
    // Most files wait (on relays, redis-servers, browsers, timers) rather than compute: two at a time
    // on a 2-core machine, not Vitest's default of one fewer than the cores.
    maxWorkers: 2,
    projects: [
      // The quick tier (`npm run test:quick`): in-process server and simulator tests, no other process.
      // One module graph per worker, not per file (isolate: false): importing the relay (some 300
      // modules) again for each of ~100 files was half of the tier's CPU time. These files mock no
      // module and set no global; what a relay holds lives in the relay each test builds.
      nodeProject('unit', quickTestFiles(...SERVER_TESTS), { isolate: false }),
      { extends: true, test: { name: 'widget', environment: 'jsdom', include: ['test/widget/**/*.test.{ts,tsx}'] } },
      // Server and simulator tests that start redis-servers, relays, nginx or other processes, or run
      // long; Node's compile cache is filled first, for the relays they start.
      nodeProject('system', heavyTestFiles(...SERVER_TESTS), { globalSetup: ['test/tools/warm-compile-cache.ts'] }),
      // The built widget (dist/, `npm run build` first) and real browsers.
      nodeProject('build', ['test/build/**/*.test.ts']),
      // One Firefox lent to one file at a time instead of one launched per file (firefox-pool.ts).
      nodeProject('e2e', ['test/e2e/**/*.test.ts'], { globalSetup: ['test/support/engines/firefox-pool.ts'] }),
    ],
  },
});
