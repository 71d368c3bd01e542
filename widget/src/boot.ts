// Everything the script tag does at page load, and nothing more: read the config, capture the
// attribution, draw the launcher, install window.dialback. No request is made here; the UI chunk
// (Preact and the dialog; it then fetches one language's texts) is fetched on the visitor's first sign of intent.
import { createDialback, type DialbackFunction } from './commands.ts';
import { readConfig } from './config.ts';
import type { InviteContext, WidgetUi } from './context.ts';
import type { Messages } from './ui/i18n/types.ts';
import type { ShowInvite } from './invite/index.ts';
import { adoptStyles, mountWidget, type MountedWidget } from './element.ts';
import { createEventHub } from './events.ts';
import { launcherText } from './launcher-text.ts';
import { report } from './report.ts';

const openSelector = '[data-dialback-open]';

export interface Booted {
  dialback: DialbackFunction;
  /** Resolves once the launcher is in the page (at once, or at DOMContentLoaded). */
  mounted: Promise<MountedWidget>;
}

export function boot(win: Window & { dialback?: DialbackFunction }, doc: Document, script: (Element & HTMLOrSVGElement) | null): Booted | null {
  // Only our own stub (or copy) counts: a page may already hold something else under that name (an
  // element with id="dialback", another script's object), which the widget then simply replaces.
  const stub = typeof win.dialback === 'function' ? win.dialback : undefined;
  if (stub?.loaded) return null; // the script ran twice (SPA, tag manager): the first copy stays in charge
  const queued = Array.isArray(stub?.q) ? stub.q : [];
  // dialback('config', {...}) queued before the script ran (how a tag manager hands over the settings)
  // counts as the tag's data-* attributes, keys named as element.dataset names them: the entry and
  // the lazy chunks then read one place. Read once, here: the real dialback ignores a later config.
  for (const args of queued)
    if (args?.[0] === 'config')
      try {
        Object.assign((script ??= doc.createElement('script')).dataset, args[1]);
      } catch (error) {
        report(error); // a key no attribute can have: the browser's message names it
      }

  const config = readConfig(script, doc, win.navigator.languages);
  // The page address as it stood at load: its utm_* parameters may be gone after an SPA navigation.
  // No cookie is read here: the lazy chunks read them only as the visitor's consent allows (consent/).
  const pageAtLoad = win.location.href;
  // Every dialback('consent', …), in order: the lazily loaded consent code reads them.
  const told: unknown[] = [];
  const hub = createEventHub(win);
  let ui: Promise<WidgetUi> | undefined;
  let isOpen = false;
  // The launcher in the page, with what the lazy chunks are handed (one object for all of them).
  let mounted: Promise<MountedWidget & InviteContext>; // assigned below, once the actions it wires up exist

  // The visitor's language catalog is fetched beside the UI chunk, not after it (the build names the
  // catalogs after the UI chunk, whose hash it writes in place of __UI_HASH__; the UI chunk then finds
  // the catalog in the browser's module map). Only in the build: the sources have no such file.
  // (The sources name the catalog itself: tests run them unbuilt.)
  const catalog = (): Promise<{ messages: Messages }> =>
    import.meta.env.PROD ? import(/* @vite-ignore */ `./chunks/${config.lang}-__UI_HASH__.js`) : import(`./ui/i18n/${config.lang}.ts`);
  const loadUi = (): Promise<WidgetUi> =>
    (ui ??= Promise.all([mounted, import('./ui/mount.tsx'), import.meta.env.PROD && catalog()]).then(([context, module]) => module.start(context)));
  // A failed download (flaky network) may succeed next time: forget it.
  const retryable = (p: Promise<WidgetUi>) =>
    p.catch((error) => {
      ui = undefined;
      return Promise.reject(error);
    });
  const prefetch = () => void retryable(loadUi()).then((u) => u.prepare(), report);
  const open = (opener: Element | null) =>
    void retryable(loadUi()).then(
      (u) => u.open((opener ?? doc.activeElement) as HTMLElement | null),
      (error) =>
        mounted.then((m) => {
          report(error);
          // The office's number, where the site gave one (nothing to offer otherwise: the next press tries again).
          m.unavailable.hidden = !config.phoneHref;
        }),
    );
  const close = () => void ui?.then((u) => u.close());

  mounted = new Promise((resolve) => {
    const mount = () => {
      try {
        const m = mountWidget(doc, config, launcherText[config.lang]);
        m.launcher.onclick = () => (isOpen ? close() : open(m.launcher));
        for (const type of ['pointerenter', 'focus', 'touchstart']) m.launcher.addEventListener(type, prefetch, { passive: true });
        resolve({
          ...m,
          config,
          script,
          pageAtLoad,
          told,
          catalog,
          emit: hub.emit,
          report,
          adoptStyles: (css) => adoptStyles(m.shadow, css),
          onOpenChange(open) {
            isOpen = open;
            m.launcher.setAttribute('aria-expanded', '' + open);
            m.unavailable.hidden = true;
          },
        });
      } catch (error) {
        report(error);
      }
    };
    // A task of its own, not the script's: drawing the launcher (its stylesheet parsed, its shadow
    // tree built) in the same task as the script's evaluation made one long task of 50–55 ms at 4×
    // CPU at page load; apart, each stays well under 50 ms, and the page's own work can run between.
    if (doc.body) setTimeout(mount);
    else doc.addEventListener('DOMContentLoaded', mount);
  });

  // The invitation is a chunk of its own, fetched at idle and only for a tag with data-invite (or
  // when the page asks for it): other pages never pay for it.
  // (A download that failed is reported, and not tried again on this page.)
  // biome-ignore lint/suspicious/noConfusingVoidType: a failed download resolves to what report() returns
  let invite: Promise<ShowInvite | void> | undefined;
  const loadInvite = () => (invite ??= Promise.all([mounted, import('./invite/index.ts')]).then(([context, module]) => module.start(context), report));
  if (script?.getAttribute('data-invite')) (win.requestIdleCallback || setTimeout)(loadInvite);

  const dialback = createDialback({ open: () => open(null), close, invite: () => loadInvite().then((show) => show?.()), consent: (c) => told.push(c), on: hub.on });
  win.dialback = dialback;

  // Any element with data-dialback-open, including ones the page adds later. Capture phase, so a
  // page handler that stops propagation cannot swallow the click.
  doc.addEventListener(
    'click',
    (event) => {
      const opener = (event.target as Element).closest?.(openSelector);
      if (opener) {
        event.preventDefault();
        open(opener);
      }
    },
    true,
  );

  for (const args of queued) dialback(...Array.from(args));
  return { dialback, mounted };
}
