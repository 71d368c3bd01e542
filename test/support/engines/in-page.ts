// What the cross-engine scenarios read, as functions run inside the page (sent as source text, so
// each is self-contained), and the host-page scripts they need. Identical in every engine.
import { createRequire } from 'node:module';
import { waitFor, type EnginePage } from './engine.ts';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WidgetSnapshot {
  open: boolean;
  /** The dialog's text (empty when closed). */
  text: string;
  dialog: Box | null;
  launcher: Box | null;
  phone: Box | null;
  submit: Box | null;
  /** The focused element: its id, aria-label, class or tag. */
  active: string | null;
  /** The focused control's label (fields, radios) or its text: what a screen reader names it by. */
  activeLabel: string | null;
  activeInDialog: boolean;
  activeIsLauncher: boolean;
  /** document.hasFocus(): the page's window has the keyboard (focus() moves no keyboard focus elsewhere). */
  pageHasFocus: boolean;
  /** The page runs in a frame (the WebKit adapter frames phone-sized pages: its window cannot get that narrow). */
  framed: boolean;
  /** The call step marked aria-current. */
  step: string | null;
  /** The href of the office's tel: link where one shows (form alert or the entry's own notice). */
  tel: string | null;
  /** console.error calls, uncaught errors and unhandled rejections the page saw. */
  errors: string[];
  viewport: [number, number];
  /** The viewport without the page's scrollbars (Firefox draws classic ones): where position: fixed lays out. */
  client: [number, number];
}

/** Runs in the page. The widget's element is <dialback-widget>, or <dialback-widget-own> when the page defined that name. */
export function snapshot(): WidgetSnapshot {
  const host = document.querySelector('dialback-widget,dialback-widget-own');
  const root = host?.shadowRoot ?? null;
  const dialog = root?.querySelector('[role=dialog]') ?? null;
  const launcher = root?.querySelector('.launcher') ?? null;
  const box = (el: Element | null | undefined) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  };
  let active: Element | null = document.activeElement;
  if (host && active === host) active = root!.activeElement;
  const tel = [...(root?.querySelectorAll('a[href^="tel:"]') ?? [])].find((a) => (a as HTMLElement).offsetParent !== null);
  return {
    open: !!dialog,
    text: dialog?.textContent ?? '',
    dialog: box(dialog),
    launcher: box(launcher),
    phone: box(root?.querySelector('#db-phone')),
    submit: box(root?.querySelector('form .primary')),
    active: active ? active.id || active.getAttribute('aria-label') || active.className || active.tagName : null,
    activeLabel: active ? ((active as HTMLInputElement).labels?.[0]?.textContent ?? active.textContent ?? '').trim() || null : null,
    activeInDialog: !!dialog && !!active && dialog.contains(active),
    activeIsLauncher: !!active && active === launcher,
    pageHasFocus: document.hasFocus(),
    framed: self !== top,
    step: root?.querySelector('[aria-current=step]')?.textContent ?? null,
    tel: tel?.getAttribute('href') ?? null,
    errors: (window as unknown as { __errors?: string[] }).__errors ?? [],
    viewport: [innerWidth, innerHeight],
    client: [document.documentElement.clientWidth, document.documentElement.clientHeight],
  };
}

/** Polls the widget until `predicate` holds; fails with `what` and the last snapshot. */
export async function until(page: EnginePage, what: string, predicate: (s: WidgetSnapshot) => unknown, timeout?: number): Promise<WidgetSnapshot> {
  const end = Date.now() + (timeout ?? 10_000);
  let last: WidgetSnapshot;
  for (;;) {
    last = await page.run(snapshot);
    if (predicate(last)) return last;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last state: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function centre(box: Box | null, what: string): [number, number] {
  if (!box) throw new Error(`${what} is not on the page`);
  return [box.x + box.width / 2, box.y + box.height / 2];
}

/**
 * First in the host page's <head>: records console.error, uncaught errors and unhandled rejections
 * (the same way in every engine; WebKitWebDriver has no log API).
 */
export const errorRecorder = `<script>window.__errors=[];(function(){var e=console.error;console.error=function(){window.__errors.push([].slice.call(arguments).join(' '));return e.apply(this,arguments)};addEventListener('error',function(ev){window.__errors.push('uncaught: '+ev.message)});addEventListener('unhandledrejection',function(ev){window.__errors.push('unhandled rejection: '+ev.reason)})})()</script>`;

/** Holds the page's POST /api/callback until the test calls window.__release(): the "sending" state, in every engine. */
export const requestHolder = `<script>(function(){var f=window.fetch,open,held=new Promise(function(r){open=r});window.__release=function(){open()};window.fetch=function(url,init){var a=arguments,self=this;return init&&init.method==='POST'?held.then(function(){return f.apply(self,a)}):f.apply(self,a)}})()</script>`;

const axeSource: string = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** axe-core in the page: WCAG 2.1 A/AA violations on the widget's element (axe walks its open shadow root). */
export async function axeViolations(page: EnginePage): Promise<string[]> {
  await page.run((source: string) => {
    // biome-ignore lint/security/noGlobalEval: runs the test's own function source in the page's global scope (the adapters pass functions as text)
    // biome-ignore lint/complexity/noCommaOperator: `(0, eval)` is the indirect, global-scope eval
    if (!('axe' in window)) (0, eval)(source);
  }, axeSource);
  return page.run(async () => {
    // Let the dialog's fade-in end first: mid-fade its text really has less contrast (WebKit, slower
    // here, was measured so). Its computed opacity follows the animation.
    const dialog = document.querySelector('dialback-widget')?.shadowRoot?.querySelector('[role=dialog]');
    for (let i = 0; i < 100 && dialog && getComputedStyle(dialog).opacity !== '1'; i++) await new Promise((r) => setTimeout(r, 20));
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }> } }).axe;
    const result = await axe.run(
      { include: [['dialback-widget']] },
      { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] },
    );
    return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  });
}

export { waitFor };
