// What makes the invitation appear (data-invite): the list the site owner wrote, parsed, and the
// page signals each trigger listens to. Nothing here shows anything: each trigger calls `fire`, and
// the caps decide (see index.ts).

export type TriggerName = 'exit' | 'time' | 'scroll' | 'pages';

/** [name, N]: seconds (time), percent of the page (scroll), pages in this session (pages); 0 for exit. */
export type Trigger = [name: TriggerName, n: number];

/** `"exit, time:30 scroll:50"` → [the triggers, the entries that are not one (warned about once)]. */
export function parseTriggers(list: string): [Trigger[], string[]] {
  const triggers: Trigger[] = [];
  const invalid: string[] = [];
  for (const entry of list.split(/[\s,]+/)) {
    const [, name = 'exit', n = 0] = /^(?:exit|(time|scroll|pages):(\d{1,7}))$/.exec(entry) ?? [];
    if (entry === 'exit' || (n && !(name === 'scroll' && +n > 100))) triggers.push([name as TriggerName, +n]);
    else if (entry) invalid.push(entry);
  }
  return [triggers, invalid];
}

/** How fast a scroll back up counts as leaving on a touch screen: this far up within `fastMs`. */
const fastUpPx = 250;
const fastMs = 250;
/** How long the visitor must have been in another tab before coming back counts. */
const awayMs = 5000;

/**
 * Arms each trigger on `win`. `now`: the clock; `elapsed`: how long the page has been open already
 * (time:N counts from the page's start); `pages`: pages of this site this session, this one included.
 */
export function armTriggers(triggers: readonly Trigger[], win: Window, now: () => number, elapsed: number, pages: number, fire: (name: TriggerName) => void): void {
  const doc = win.document;
  const on = (target: EventTarget, type: string, listener: (event: never) => unknown) => target.addEventListener(type, listener as EventListener);
  let touch = !!win.matchMedia?.('(pointer: coarse)').matches;
  let fromY = 0;
  let fromT = 0;
  let hiddenAt = 0;
  for (const [name, n] of triggers) {
    const go = () => fire(name);
    if (name === 'time') win.setTimeout(go, n * 1000 - elapsed);
    else if (name === 'pages') pages >= n && go();
    // Reached when the bottom of the window is N % down the page.
    else if (name === 'scroll') on(win, 'scroll', () => (win.scrollY + win.innerHeight) * 100 >= n * doc.documentElement.scrollHeight && go());
    else {
      // Exit intent. With a mouse: the pointer leaves the window through its top edge (towards the
      // tabs and the address bar). On a touch screen, which has no such pointer: a fast scroll back
      // up, or coming back to the tab after a while away. The last pointer used decides which.
      on(win, 'pointerdown', (event: PointerEvent) => (touch = event.pointerType === 'touch'));
      on(doc, 'mouseout', (event: MouseEvent) => !touch && !event.relatedTarget && event.clientY <= 0 && go());
      // A reference point that a scroll down or a pause moves: only a quick run up from it counts.
      on(win, 'scroll', () => {
        const y = win.scrollY;
        const t = now();
        if (y >= fromY || t - fromT > fastMs) [fromY, fromT] = [y, t];
        else if (touch && fromY - y >= fastUpPx) go();
      });
      on(doc, 'visibilitychange', () => {
        if (doc.hidden) hiddenAt = now();
        else if (touch && hiddenAt && now() - hiddenAt >= awayMs) go();
      });
    }
  }
}
