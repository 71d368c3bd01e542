// Build plugin: each language catalog is renamed after the UI chunk (`chunks/mount-<H>.js` →
// `chunks/en-<H>.js`, `chunks/uk-<H>.js`, …), so the script-tag entry can name the visitor's catalog
// from the language and the UI chunk's name it already holds, and fetch both at once on the first
// intent. Fetched by the UI chunk once it had arrived, the catalog was a second round trip in a
// row before the dialog could be drawn; the entry could not carry five hashes of its own (its budget
// is 3,072 B gzip, and this costs it a few bytes: the hash repeats the UI chunk's). The UI chunk then
// imports the same URL, which the browser already has in its module map.
//
// Still safe to cache forever: the bundler hashed the UI chunk over its content while that content
// still named each catalog by the catalog's own content hash, so any change to a catalog changes H,
// and with it every catalog's new name. The UI chunk's list of catalogs then becomes one import of
// `./<lang>-<H>.js` (the visitor's language is one of the list's: the entry picked it).
import type { Plugin } from 'vite';

/** What the entry writes where the UI chunk's hash goes (`./chunks/${lang}-__UI_HASH__.js`). */
const placeholder = '__UI_HASH__';

export function catalogNames(ui: RegExp, catalog: RegExp): Plugin {
  return {
    name: 'dialback:catalog-names',
    enforce: 'post',
    generateBundle(_options, bundle) {
      type Chunk = Extract<(typeof bundle)[string], { type: 'chunk' }>;
      const chunks = Object.values(bundle).filter((c): c is Chunk => c.type === 'chunk');
      const uiChunk = chunks.find((c) => c.facadeModuleId && ui.test(c.facadeModuleId));
      const hash = uiChunk && /-([\w-]+)\.js$/.exec(uiChunk.fileName)?.[1];
      if (!hash) this.error(`no UI chunk with a hash in its name matched ${ui}`);
      const renamed = new Map<string, string>();
      for (const c of chunks.filter((c) => c.facadeModuleId && catalog.test(c.facadeModuleId))) {
        const fileName = c.fileName.replace(/[^/]+$/, `${c.name}-${hash}.js`);
        renamed.set(c.fileName.replace(/^.*\//, ''), fileName.replace(/^.*\//, ''));
        // (Renaming a chunk in place is not written out: the file goes out as an asset of that name.)
        delete bundle[c.fileName];
        this.emitFile({ type: 'asset', fileName, source: c.code });
      }
      if (renamed.size === 0) this.error(`no language catalog matched ${catalog}`);
      // The chunks name a catalog by its file name alone (`./en-<hash>.js`).
      const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
      const names = new RegExp(`(?<=[/"'\`])(${[...renamed.keys()].map(literal).join('|')})(?=["'\`])`, 'g');
      for (const c of chunks) {
        if (!bundle[c.fileName]) continue;
        c.code = c.code.replace(names, (name) => renamed.get(name)!);
        if (c.isEntry) c.code = c.code.replaceAll(placeholder, hash);
      }
      // The UI chunk's own list of the catalogs ({en:()=>import(`./en-<H>.js`),…}) now repeats one
      // name with the language changed: one import of that name does, ~90 B less on every visitor's
      // download. Its hash H was taken over the list as it named each catalog by its own content
      // hash (above), so it still changes with any catalog.
      const list = new RegExp(`\\{(?:([a-z]{2}):\\(\\)=>import\\(\`\\./\\1-${literal(hash)}\\.js\`\\),?){${renamed.size}}\\}`);
      const found = list.exec(uiChunk.code);
      if (!found) this.error(`the UI chunk lists its ${renamed.size} catalogs in a shape this plugin does not know`);
      uiChunk.code = uiChunk.code.replace(found[0], `new Proxy({},{get:(_$,l$)=>()=>import(\`./\${l$}-${hash}.js\`)})`);
    },
  };
}
