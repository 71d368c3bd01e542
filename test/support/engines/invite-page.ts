// What the invitation scenarios read and do inside the page, in any engine (functions sent as source
// text, so each is self-contained), and the host-page script that records the invitation's events.
import { type EnginePage, waitFor } from './engine.ts';

/**
 * First in the page's <head>: records `dialback:invite` events and the dataLayer pushes, and notes
 * when the invitation's chunk has started (it listens for `dialback:success` on window, then arms
 * its triggers in the same task), so a scenario acts only once the triggers listen.
 */
export const inviteRecorder = `<script>window.__invites=[];window.dataLayer=[];addEventListener('dialback:invite',function(e){window.__invites.push(e.detail.trigger)});(function(){var add=window.addEventListener;window.addEventListener=function(type){if(type==='dialback:success')window.__inviteStarted=true;return add.apply(this,arguments)}})()</script>`;

/** Waits until the invitation's chunk has started on this page (its triggers are armed). */
export function untilStarted(page: EnginePage): Promise<unknown> {
  return waitFor(page, "the invitation's chunk to start", () => (window as unknown as { __inviteStarted?: boolean }).__inviteStarted, undefined, 20_000);
}

export interface InviteSnapshot {
  /** The bubble's sentence, null while there is none. */
  text: string | null;
  /** aria-live of the region the bubble sits in. */
  live: string | null;
  bubble: { x: number; y: number; width: number; height: number } | null;
  launcher: { x: number; y: number; width: number; height: number } | null;
  /** The focused element: the page's own (id) or the widget's (its text or aria-label). */
  active: string | null;
  /** The triggers `dialback:invite` reported, in order. */
  events: string[];
  /** The dataLayer entries named dialback_invite. */
  pushed: unknown[];
  dialogOpen: boolean;
  errors: string[];
}

/** Runs in the page. */
export function inviteSnapshot(): InviteSnapshot {
  const host = document.querySelector('dialback-widget');
  const root = host?.shadowRoot ?? null;
  const bubble = root?.querySelector('.invite') ?? null;
  const box = (el: Element | null | undefined) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  };
  const active = document.activeElement === host ? root!.activeElement : document.activeElement;
  const w = window as unknown as { __invites?: string[]; dataLayer?: Array<{ event?: string }>; __errors?: string[] };
  return {
    text: bubble?.querySelector('button')?.textContent ?? null,
    live: bubble?.parentElement?.getAttribute('aria-live') ?? null,
    bubble: box(bubble),
    launcher: box(root?.querySelector('.launcher')),
    active: active ? active.id || active.getAttribute('aria-label') || active.textContent || active.tagName : null,
    events: w.__invites ?? [],
    pushed: (w.dataLayer ?? []).filter((e) => e.event === 'dialback_invite'),
    dialogOpen: !!root?.querySelector('[role=dialog]'),
    errors: w.__errors ?? [],
  };
}

/** Polls until `predicate` holds (a page being replaced answers nothing for a moment: tried again). */
export async function untilInvite(page: EnginePage, what: string, predicate: (s: InviteSnapshot) => unknown, timeout = 20_000): Promise<InviteSnapshot> {
  const end = Date.now() + timeout;
  let last: InviteSnapshot | string = 'nothing yet';
  for (;;) {
    try {
      last = await page.run(inviteSnapshot);
      if (predicate(last)) return last;
    } catch (error) {
      last = String(error);
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Goes to `url` in the same tab (its sessionStorage stays) and waits until the new page has loaded. */
export async function navigate(page: EnginePage, url: string): Promise<void> {
  await page.run((to: string) => {
    (window as unknown as { __left?: boolean }).__left = true;
    setTimeout(() => location.assign(to), 0);
  }, url);
  const end = Date.now() + 10_000;
  for (;;) {
    const arrived = await page.run(() => !(window as unknown as { __left?: boolean }).__left && document.readyState === 'complete' && location.href).catch(() => false);
    if (arrived === url) return;
    if (Date.now() > end) throw new Error(`the page did not load ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits a real `ms` in the page: long enough for the idle import and a trigger that should not fire. */
export function settle(page: EnginePage, ms: number): Promise<unknown> {
  return page.run((wait: number) => new Promise((resolve) => setTimeout(resolve, wait)), ms);
}

/**
 * A new session in the same tab: sessionStorage emptied, localStorage emptied (`'forget'`) or given
 * `dialback:` instants so many milliseconds ago (the widget's clock moved back, in effect), then `url`.
 */
export async function newSession(page: EnginePage, url: string, stored: Record<string, number> | 'forget'): Promise<void> {
  await page.run((set: Record<string, number> | 'forget') => {
    sessionStorage.clear();
    if (set === 'forget') localStorage.clear();
    else for (const [key, ago] of Object.entries(set)) localStorage.setItem('dialback:' + key, String(Date.now() - ago));
  }, stored);
  await navigate(page, url);
}
