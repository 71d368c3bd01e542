// The script-tag entry at page load: the launcher in a shadow root, window.dialback with its queue,
// data-dialback-open delegation, no double mount. The events' hub: events.test.ts.
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { boot } from '../../widget/src/boot.ts';
import type { EntryConfig } from '../../widget/src/config.ts';

type Win = Window & { dialback?: ((...args: unknown[]) => void) & { q?: unknown[][]; loaded?: true }; dataLayer?: unknown[] };
const win = window as Win;

function script(attrs: Record<string, string> = {}): HTMLScriptElement {
  const el = document.createElement('script');
  el.setAttribute('src', 'http://127.0.0.1:9/widget.js');
  for (const [k, v] of Object.entries({ lang: 'en', country: 'UA', ...attrs })) el.setAttribute(`data-${k}`, v);
  return el;
}

const testEntry: EntryConfig = {
  relay: 'http://127.0.0.1:9',
  lang: 'en',
  country: 'UA',
  left: false,
  color: null,
  phone: null,
  phoneHref: null,
  launcher: true,
};

const shadow = () => document.querySelector('dialback-widget')?.shadowRoot ?? null;

/** The UI chunk started on its own, as the script tag starts it, rendering into `container`. */
async function startUi(container: HTMLElement, context: { script?: HTMLScriptElement; emit?: (name: string) => void; adoptStyles?: (css: string) => void } = {}) {
  const { start } = await import('../../widget/src/ui/mount.tsx');
  return start({
    config: testEntry,
    script: context.script ?? null,
    container,
    pageAtLoad: location.href,
    told: [],
    catalog: () => import('../../widget/src/ui/i18n/en.ts'),
    emit: context.emit ?? (() => {}),
    report: () => {},
    adoptStyles: context.adoptStyles ?? (() => {}),
    onOpenChange: () => {},
  });
}

beforeEach(() => {
  delete win.dialback;
  delete win.dataLayer;
  document.body.innerHTML = '';
  document.head.innerHTML = '';
  // The widget lives outside <body> (single-page apps replace it): clearing the body leaves it.
  for (const el of document.querySelectorAll('dialback-widget, dialback-widget-own')) el.remove();
});

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  // A dialog a test opened asks for the status after its first frame, a frame that may come only
  // after the test: done here, so no test's fetch hears another's. (The frame's callbacks run in
  // the order asked, so this one runs after any asked before it, and its task after theirs.)
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
});

describe('boot', () => {
  test('draws the launcher in an open shadow root and writes nothing to <head>', async () => {
    const booted = boot(window, document, script({ lang: 'uk' }));
    await booted!.mounted;
    const root = shadow();
    expect(root).not.toBeNull();
    expect(root!.mode).toBe('open');
    const launcher = root!.querySelector('button.launcher')!;
    expect(launcher.textContent).toBe('Передзвоніть мені');
    expect(launcher.getAttribute('aria-haspopup')).toBe('dialog');
    expect(launcher.getAttribute('aria-expanded')).toBe('false');
    expect(document.head.childNodes).toHaveLength(0);
    expect(document.querySelectorAll('style, link')).toHaveLength(0);
  });

  test('data-launcher="false" hides the floating button', async () => {
    await boot(window, document, script({ launcher: 'false' }))!.mounted;
    expect(shadow()!.querySelector<HTMLButtonElement>('button.launcher')!.hidden).toBe(true);
  });

  test('data-color becomes a custom property on the element (CSSOM, fine under a strict CSP)', async () => {
    vi.stubGlobal('CSS', { supports: () => true }); // jsdom has none; the browser's judges the colour
    const { mounted } = boot(window, document, script({ color: '#e91e63' }))!;
    const { host } = await mounted;
    expect(host.style.getPropertyValue('--dialback-color')).toBe('#e91e63');
  });

  test('running twice mounts once; the first copy stays in charge', async () => {
    const first = boot(window, document, script());
    await first!.mounted;
    const api = win.dialback;
    expect(boot(window, document, script())).toBeNull();
    expect(document.querySelectorAll('dialback-widget')).toHaveLength(1);
    expect(win.dialback).toBe(api);
  });

  test("draws the launcher in a task of its own, not in the script's (no long task at page load), while window.dialback is there at once", async () => {
    const booted = boot(window, document, script())!;
    expect(document.querySelector('dialback-widget')).toBeNull();
    expect(win.dialback?.loaded).toBe(true);
    await booted.mounted;
    expect(shadow()!.querySelector('button.launcher')).not.toBeNull();
  });

  test('waits for <body> when the script runs in <head> before the body exists', async () => {
    const body = document.body;
    body.remove();
    const booted = boot(window, document, script())!;
    expect(document.querySelector('dialback-widget')).toBeNull();
    document.documentElement.appendChild(body);
    document.dispatchEvent(new Event('DOMContentLoaded'));
    await booted.mounted;
    expect(document.documentElement.lastElementChild!.tagName).toBe('DIALBACK-WIDGET');
  });
});

describe('window.dialback', () => {
  test('replays the calls the stub recorded, in order: a handler, then open', async () => {
    // What a site's handler sees when it runs: the dialog must already be there.
    const opened = vi.fn(() => shadow()?.querySelector('[role=dialog]') ?? null);
    win.dialback = Object.assign(
      (...args: unknown[]) => {
        (win.dialback!.q ??= []).push(args);
      },
      { q: [] as unknown[][] },
    );
    win.dialback('on', 'open', opened);
    win.dialback('open');
    boot(window, document, script());
    expect(win.dialback.loaded).toBe(true);
    await vi.waitFor(() => expect(opened).toHaveBeenCalledOnce(), { timeout: 5000 });
    expect(opened.mock.results[0]!.value).not.toBeNull();
    expect(shadow()!.querySelector('[role=dialog]')).not.toBeNull();
    expect(shadow()!.querySelector('button.launcher')!.getAttribute('aria-expanded')).toBe('true');
  });

  test("the page hears 'open' once the dialog is in the shadow root, and 'close' once it is gone", async () => {
    const booted = boot(window, document, script())!;
    const heard: Array<[string, boolean]> = [];
    const dialogThere = () => !!shadow()?.querySelector('[role=dialog]');
    for (const name of ['open', 'close']) booted.dialback('on', name, () => heard.push([name, dialogThere()]));
    booted.dialback('open');
    await vi.waitFor(() => expect(heard).toHaveLength(1), { timeout: 5000 });
    booted.dialback('close');
    await vi.waitFor(() => expect(heard).toHaveLength(2));
    expect(heard).toEqual([
      ['open', true],
      ['close', false],
    ]);
  });

  test('a dialog opened and closed again before it was drawn tells the page nothing', async () => {
    const events: string[] = [];
    const container = document.body.appendChild(document.createElement('div'));
    const ui = await startUi(container, { emit: (name) => void events.push(name) });
    ui.open(null);
    ui.close();
    // A timer set now runs after the one that would have drawn the dialog.
    await new Promise((resolve) => setTimeout(resolve));
    expect(container.querySelector('[role=dialog]')).toBeNull();
    expect(events).toEqual([]);
    ui.open(null);
    await vi.waitFor(() => expect(events).toEqual(['open']));
    expect(container.querySelector('[role=dialog]')).not.toBeNull();
  });

  // The entry reads data-country and the language tag; the language's own country comes with its
  // catalog (the entry has no room for a table of them). Each catalog is a module of its own, which
  // the test runner compiles on its first import: done once here, on the hook's time, so no case's
  // time depends on the machine's load.
  beforeAll(async () => {
    await Promise.all(['kk', 'cs', 'et', 'en', 'uk', 'lv', 'es'].map((lang) => import(`../../widget/src/ui/i18n/${lang}.ts`)));
    await import('../../widget/src/ui/mount.tsx');
  }, 60_000);
  test.each([
    [{ lang: 'kk' }, 'KZ'],
    [{ lang: 'cs' }, 'CZ'],
    [{ lang: 'et' }, 'EE'],
    [{ lang: 'en' }, 'US'],
    [{ lang: 'uk' }, 'UA'],
    [{ lang: 'lv-LV' }, 'LV'],
    [{ lang: 'es-AR' }, 'AR'],
    [{ lang: 'kk', country: 'ru' }, 'RU'],
  ])('the country list starts on the country for national numbers (%j → %s)', async (attrs, country) => {
    const booted = boot(window, document, script({ country: '', ...attrs }))!;
    // The launcher first: the dialog is drawn a task or more later, so the look below starts in that gap.
    await booted.mounted;
    booted.dialback('open');
    const select = await vi.waitFor(
      () => {
        const found = shadow()!.querySelector<HTMLSelectElement>('#db-country');
        // Until the dialog is drawn: a look that returned null would end the wait with nothing to read.
        if (!found) throw new Error('no country list yet');
        return found;
      },
      { timeout: 5000 },
    );
    // The language's own country comes with its catalog, a module of its own: the first import of one may take a while.
    await vi.waitFor(() => expect(select.value).toBe(country), { timeout: 5000 });
  });

  test('the status is asked for after the first frame, not between the click and it', async () => {
    const frames: FrameRequestCallback[] = [];
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
    const asked = vi.spyOn(window, 'fetch').mockImplementation(() => new Promise(() => {}));
    const container = document.body.appendChild(document.createElement('div'));
    const ui = await startUi(container);
    // A tab that draws no frames is asked a second after the open, on a timer: on the test's clock,
    // so a loaded machine's slow second cannot ask before the frame.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    ui.open(null);
    vi.advanceTimersByTime(999);
    expect(container.querySelector('[role=dialog]')).not.toBeNull();
    await Promise.resolve();
    expect(asked).not.toHaveBeenCalled();
    // The frame: its callbacks, then a task after it.
    for (const callback of frames.splice(0)) callback(performance.now());
    vi.advanceTimersByTime(0);
    await vi.waitFor(() => expect(asked).toHaveBeenCalledTimes(1));
    expect(String(asked.mock.calls[0]![0])).toBe('http://127.0.0.1:9/api/status');
  });

  test("the dialog's stylesheets go in at its first draw, not when the UI starts", async () => {
    const adopted: string[] = [];
    const container = document.body.appendChild(document.createElement('div'));
    const tag = document.createElement('script');
    tag.setAttribute('data-consent-text', 'I agree to be called.');
    const ui = await startUi(container, { script: tag, adoptStyles: (css) => void adopted.push(css) });
    // Started, consent chunk and all: nothing adopted yet, so no frame restyles the launcher for it.
    expect(adopted).toEqual([]);
    ui.open(null);
    await vi.waitFor(() => expect(container.querySelector('[role=dialog]')).not.toBeNull());
    // The dialog's and the consent box's (the unit tests' build inlines CSS files as empty texts,
    // so here the two are told apart by count, not content).
    expect(adopted).toHaveLength(2);
    expect(container.style.colorScheme).toBe('light');
  });

  test('any element with data-dialback-open opens the dialog, including ones added later', async () => {
    const booted = boot(window, document, script())!;
    await booted.mounted;
    const link = document.createElement('a');
    link.href = '#call';
    link.setAttribute('data-dialback-open', '');
    link.innerHTML = '<span>Call me</span>';
    document.body.appendChild(link);
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    link.querySelector('span')!.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(shadow()!.querySelector('[role=dialog]')).not.toBeNull(), { timeout: 5000 });
    booted.dialback('close');
    await vi.waitFor(() => expect(shadow()!.querySelector('[role=dialog]')).toBeNull());
  });

  test("dialback('consent', …) is recorded in order, queued or not, for the lazy consent code; nothing read, nothing reported", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const cookie = vi.spyOn(document, 'cookie', 'get');
    win.dialback = Object.assign(() => {}, { q: [['consent', { analytics: false, ads: false }]] });
    const booted = boot(window, document, script())!;
    booted.dialback('consent', { analytics: true, ads: 'denied' });
    const { told } = await booted.mounted.then((m) => m as unknown as { told: unknown[] });
    expect(told).toEqual([
      { analytics: false, ads: false },
      { analytics: true, ads: 'denied' },
    ]);
    expect(error).not.toHaveBeenCalled();
    expect(cookie).not.toHaveBeenCalled();
  });

  test('an unknown command is reported once with the [dialback] prefix and throws nothing', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const booted = boot(window, document, script())!;
    expect(() => booted.dialback('explode')).not.toThrow();
    expect(() => booted.dialback('explode')).not.toThrow();
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]![0]).toBe('[dialback]');
  });
});
