// The UI chunk's entry: loaded on the visitor's first intent, handed everything it needs by the
// script-tag entry (see ../context.ts), and rendering into the widget's shadow root.
import { h, render } from 'preact';
import type { ErrorCode, StatusResponse } from '../../../server/src/contract/contract.ts';
import { createApi, type ApiResult } from '../api.ts';
import type { WidgetContext, WidgetUi } from '../context.ts';
import type { WidgetConfig } from '../config.ts';
import type { Lang } from '../lang.ts';
import type { Messages } from './i18n/types.ts';
import type { UiContext } from './ui-context.ts';
import { App } from './App.tsx';
import { readDialogConfig } from './dialog-config.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import css from './dialog.css?inline';

// One chunk per language: the visitor downloads only their own texts.
const catalogs: Record<Lang, () => Promise<{ messages: Messages }>> = {
  en: () => import('./i18n/en.ts'),
  uk: () => import('./i18n/uk.ts'),
  ru: () => import('./i18n/ru.ts'),
  pl: () => import('./i18n/pl.ts'),
  de: () => import('./i18n/de.ts'),
  cs: () => import('./i18n/cs.ts'),
  ro: () => import('./i18n/ro.ts'),
  lt: () => import('./i18n/lt.ts'),
  lv: () => import('./i18n/lv.ts'),
  et: () => import('./i18n/et.ts'),
  kk: () => import('./i18n/kk.ts'),
  es: () => import('./i18n/es.ts'),
};

export async function start(entry: WidgetContext): Promise<WidgetUi> {
  const dialog = readDialogConfig(entry.script);
  // Only what the first view needs: the attribution reader comes with the open beacon (opened.ts).
  const [{ messages }, consent, messengers] = await Promise.all([
    catalogs[entry.config.lang](),
    dialog.consentText ? import('./ConsentField.tsx') : null,
    entry.script?.matches('[data-telegram],[data-whatsapp],[data-viber]') && import('./messengers/Messengers.tsx'),
  ]);
  // The language's own country where neither data-country nor the language tag named one.
  const config: WidgetConfig = { ...entry.config, ...dialog, country: entry.config.country ?? messages.country };
  // The stylesheets wait for the first draw, and go in in the order asked (the dialog's own first,
  // then any a part's chunk brought meanwhile). Adopted here, they restyled the launcher in a frame
  // of their own between this task and the draw's (~20 ms at 4× CPU on a click at once); adopted
  // in the draw's task, that restyle is part of the dialog's first frame.
  let sheets: string[] | 0 = consent ? [css, consent.css] : [css];
  const ctx: UiContext = {
    ...entry,
    config,
    messages,
    ConsentField: consent?.ConsentField ?? null,
    Messengers: messengers ? messengers.Messengers : undefined,
    adoptStyles: (sheet) => (sheets ? sheets.push(sheet) : entry.adoptStyles(sheet)),
  };
  // The bottom sheet stays above the on-screen keyboard: where it covers the layout viewport (iOS
  // shrinks only the visual viewport), its height lifts the sheet (--db-kb in dialog.css).
  const vv = window.visualViewport;
  for (const type of ['resize', 'scroll']) vv?.addEventListener(type, () => ctx.container.style.setProperty('--db-kb', innerHeight - vv.height - vv.offsetTop + 'px'));
  // Esc closes the open dialog wherever focus is. The dialog is on screen a frame before focus moves
  // into it (longer on a busy page): an Esc meanwhile went to the launcher or the page, the dialog
  // stayed open, and the launcher's next press, a toggle, closed it. (An Esc the dialog takes itself
  // stops there.)
  addEventListener('keydown', (event) => event.key === 'Escape' && close());
  const api = createApi(ctx.config.relay, { isKnownCode: (code): code is ErrorCode => code in ctx.messages.errors });
  let status: Promise<ApiResult<StatusResponse>> | null = null;
  let isOpen = false;
  let opener: HTMLElement | null = null;
  let generation = 0; // a new boundary after a crash, so the next open starts clean
  let shown = false; // what the page was last told: the dialog is in the shadow root
  let counted = false; // the lead report's open beacon (its own chunk): once per page view, at the first open
  // Drawn in a task of its own (later()), not the caller's: not the UI's arrival (evaluating the
  // chunks is one task already) nor the click (Chrome lays the page out again at the end of a
  // click, so a dialog rendered within it made one task of its first render and layout, 60–70 ms
  // at 4× CPU). One draw at a time: a click at once asks twice (the intent's prepare, then open),
  // and a second render before the first frame ran the first one's effects ahead of that frame
  // (Preact flushes them when a component renders again): the focus and the forced style and
  // layout it brings, ~50 ms at 4× CPU between the click and the dialog on screen.
  let askStatus: (() => void) | undefined;
  let queued: unknown;
  const later = () => (queued ||= setTimeout(draw));
  const draw = () => {
    queued = 0;
    try {
      if (sheets) {
        for (const sheet of sheets) entry.adoptStyles(sheet);
        sheets = 0;
        // Drawn light whatever the page's colour scheme: in a dark one the fields would draw white
        // system text on their white background. Set here rather than in dialog.css, where the CSS
        // minifier would add a light-dark() fallback of twice its size.
        ctx.container.style.colorScheme = 'light';
      }
      render(
        <ErrorBoundary key={generation} onError={crashed}>
          <App ctx={ctx} api={api} open={isOpen} status={status} onClose={close} />
        </ErrorBoundary>,
        ctx.container,
      );
      // The status's request waits for this draw's frame (see prepare).
      const ask = askStatus;
      if (ask) requestAnimationFrame(() => setTimeout(ask));
      askStatus = undefined;
      // 'open' and 'close' are told from here, once the render has put the dialog in (or taken it
      // out): a site's handler that looks for the dialog or moves focus into it finds it. An open
      // closed again before its render, or a render that crashed, tells the page nothing.
      if (shown !== isOpen) ctx.emit((shown = isOpen) ? 'open' : 'close');
      // The open beacon's chunk is asked for in a task after this one, so that neither the request
      // nor the chunk's arrival comes between the first open's render and its frame.
      if (isOpen && !counted) {
        counted = true;
        setTimeout(() => import('./opened.ts').then((m) => m.countOpen(ctx, status), ctx.report));
      }
    } catch (error) {
      crashed(error);
    }
  };

  function crashed(error: unknown) {
    ctx.report(error);
    generation++;
    shown = false; // the boundary drew nothing: the next open is told again
    if (isOpen) {
      isOpen = false;
      ctx.onOpenChange(false);
      opener?.focus();
    }
  }

  function prepare() {
    // The first intent (hover, focus, touch): the dialog is drawn, unseen, before any click. Its
    // first render and its first style and layout, most of the opening's time, are done while the
    // pointer rests on the launcher, and the click only shows it. Unseen, it is no dialog to anyone
    // (no role, out of the accessibility tree, nothing in it focusable) and the page hears nothing.
    // Not for a site with the security check: its third party's script waits for the open.
    const drawAhead = !status && !config.turnstileSiteKey;
    if (drawAhead) later();
    // Asked for once the first draw's frame is out, not before it: starting a request is ~5 ms of
    // the main thread at 4× CPU, which came between a click at once and the dialog's first frame
    // (the answer comes after that frame either way). At once where nothing is drawn ahead. (A
    // hidden tab draws no frames: then a second later, as soon as its timers may run at all.)
    // Several departments: their choice (a chunk of its own) is ready when the status is.
    status ??= new Promise<void>((ask) => {
      if (!drawAhead) return ask();
      askStatus = ask;
      setTimeout(ask, 1000);
    })
      .then(api.status)
      .then((r) =>
        (r as { data?: StatusResponse }).data?.departments?.[1]
          ? import('./departments.tsx').then(
              (d) => d.adopt(ctx, r),
              () => r,
            )
          : r,
      );
  }

  function open(from: HTMLElement | null) {
    prepare();
    if (isOpen) return;
    opener = from;
    isOpen = true;
    later();
    ctx.onOpenChange(true);
  }

  function close() {
    if (!isOpen) return;
    isOpen = false;
    ctx.onOpenChange(false);
    draw();
    opener?.focus();
  }

  return { prepare, open, close };
}
