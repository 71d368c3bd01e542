// The page-load bench's instruments, shared with page-load-trace.ts: the script that records, inside
// the page, long tasks, layout shifts, when the launcher appeared and the opening's two ends (the
// first pointer event on the launcher, the first frame showing the dialog), and the reader of a
// Chrome trace's main-thread tasks.
import type { CDPSession, Page } from 'playwright-core';

/** The bench's host page: text in the system font, as most sites set it (the trace tools load the same). */
export const benchPageHead = '<style>body{font:16px/1.5 system-ui;margin:2rem}</style>';

/**
 * The opening's floor: the bench page without the widget, with a button that only shows a div
 * rendered at load, both in a shadow root named and classed like the widget's (so `observe` and
 * `launcherCentre` find them) and `dialback:open` sent when it shows. What the same pointer steps
 * cost with nothing to load, render or restyle but that div: the driver's input delivery, the
 * browser's event dispatch and one frame, at the same 4× CPU.
 */
export const bareOpening = `<script>
(() => {
  const host = document.createElement('dialback-widget');
  const shadow = host.attachShadow({ mode: 'open' });
  shadow.innerHTML = '<style>.root{position:fixed;right:20px;bottom:20px;display:flex;flex-direction:column;align-items:flex-end;gap:12px;font:16px/1.4 system-ui}'
    + '.launcher{min-height:52px;border:0;border-radius:26px;padding:0 20px;background:#0b57d0;color:#fff;font:inherit}'
    + '.d{width:320px;padding:16px;border-radius:12px;background:#fff;box-shadow:0 8px 30px #0004}</style>'
    + '<div class="root"><div class="d" hidden><h2>Call me back</h2><input type="tel"><button>Call me</button></div><button class="launcher">Call me back</button></div>';
  const dialog = shadow.querySelector('.d');
  shadow.querySelector('.launcher').onclick = () => {
    dialog.hidden = false;
    dialog.setAttribute('role', 'dialog');
    dispatchEvent(new CustomEvent('dialback:open'));
  };
  document.documentElement.append(host);
})();
</script>`;

/**
 * The launcher's centre, where the bench's pointer enters and presses, once the launcher is drawn.
 * Read with a plain evaluation, never a locator: a locator injects Playwright's own script, whose
 * capture listeners for hit-target interception (on window, in an isolated world) then run on every
 * pointer event of the span the bench measures, 7–10 ms of CPU at 4× that no visitor's page has.
 */
export async function launcherCentre(page: Page): Promise<[number, number]> {
  return page.evaluate(
    () =>
      new Promise<[number, number]>((resolve) => {
        const look = () => {
          const launcher = document.querySelector('dialback-widget')?.shadowRoot?.querySelector('button.launcher');
          const box = launcher?.getBoundingClientRect();
          if (!box?.width) return setTimeout(look, 20);
          resolve([box.x + box.width / 2, box.y + box.height / 2]);
        };
        look();
      }),
  );
}

export type Marks = { longTasks: number[]; shift: number; launcherAt: number | null; intentAt: number | null; pressAt: number | null; dialogFrameAt: number | null };
export const marks = (page: Page) =>
  page.evaluate(() => ({ ...(window as unknown as { __bench: Marks }).__bench, longTasks: [...(window as unknown as { __bench: Marks }).__bench.longTasks] }));

// Collects long tasks and layout shifts from navigation start, and when the launcher appeared. For
// the opening, measured inside the page: `intentAt`, the time stamp of the first pointer event on the
// launcher (the moment the visitor's hardware reported it), and `dialogFrameAt`, when the first
// frame showing the dialog has been produced: the widget tells the page it opened and the dialog is
// in its shadow root (with its role), a frame callback runs (style, layout and paint of that frame follow it in the same rendering
// task), and a task posted from it runs once that rendering task is over; there the dialog must be
// visible (a dialog drawn ahead, unseen, does not count: then the next frame is tried). The task is user-blocking (scheduler.postTask): as a plain
// message it queued behind the page's other tasks (the widget's effects after that paint, a
// response), which the span then counted though the frame was already out.
export const observe = `(() => {
  const m = (window.__bench = { longTasks: [], shift: 0, launcherAt: null, intentAt: null, pressAt: null, dialogFrameAt: null });
  let framed;
  window.__benchFramed = new Promise((resolve) => (framed = resolve));
  new PerformanceObserver((list) => { for (const e of list.getEntries()) m.longTasks.push(e.duration); }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) m.shift += e.value; }).observe({ type: 'layout-shift', buffered: true });
  const onLauncher = (e) => e.composedPath().some((n) => n.classList && n.classList.contains('launcher'));
  for (const type of ['pointerover', 'pointerdown']) addEventListener(type, (e) => { if (m.intentAt === null && onLauncher(e)) { m.intentAt = e.timeStamp; performance.mark('bench:intent'); } }, true);
  addEventListener('pointerdown', (e) => { if (m.pressAt === null && onLauncher(e)) m.pressAt = e.timeStamp; }, true);
  // The dialog is looked for when the widget tells the page it opened (dialback:open, sent in the
  // task that rendered it), not by watching the shadow root: an observer of its every mutation made
  // a record for each attribute the render set and ran its callback before the frame, ~5 ms of the
  // span at 4× CPU that is the bench's, not the widget's.
  addEventListener('dialback:open', () => {
    const dialog = document.querySelector('dialback-widget')?.shadowRoot?.querySelector('[role=dialog]');
    if (m.intentAt === null || m.dialogFrameAt !== null || !dialog) return;
    const frame = () => {
      // Style and layout are up to date after the frame: this check forces none (in the render's
      // task it did, and made that task longer than the widget made it).
      if (!dialog.checkVisibility({ visibilityProperty: true })) return requestAnimationFrame(() => scheduler.postTask(frame, { priority: 'user-blocking' }));
      m.dialogFrameAt = performance.now();
      performance.mark('bench:frame');
      framed();
    };
    requestAnimationFrame(() => scheduler.postTask(frame, { priority: 'user-blocking' }));
  });
  const drawn = new MutationObserver(() => {
    const el = document.querySelector('dialback-widget');
    if (el && el.shadowRoot && el.shadowRoot.querySelector('.launcher')) {
      m.launcherAt = performance.now();
      drawn.disconnect();
    }
  });
  drawn.observe(document, { childList: true, subtree: true });
})();`;

/**
 * The main thread's (CrRendererMain) tasks while `during` runs, from a Chrome trace: every task, not
 * only those over 50 ms that the Long Tasks API reports, so the figures show how far under the
 * threshold the widget stays, and which tasks ran the widget's own code (a script evaluation or a
 * function call from widget.js or its chunks). Tracing slows the page a little: an upper bound.
 * Each task also has its CPU time (`cpuMs`, the thread's own time, throttling included: Chromium
 * throttles by holding the thread busy, which counts as its time): what the task takes on a machine
 * with a core to itself, whatever else the machine was doing during this run (a shared machine
 * stretches the wall times, not this). `marks`: the page's performance marks.
 */
/**
 * Resolves once the first frame showing the dialog is out. Call it BEFORE sending the input, and
 * await it after: its one evaluation in the page runs before the first pointer event, where a
 * polling wait (Playwright's waitForFunction checks at every frame) would run the driver's script
 * in the page throughout the span it measures.
 */
export const frameSeen = (page: Page): Promise<unknown> => page.evaluate(() => (window as unknown as { __benchFramed: Promise<void> }).__benchFramed);

export async function traced(cdp: CDPSession, during: () => Promise<void>): Promise<{ tasks: Task[]; marks: Map<string, number> }> {
  const events: TraceEvent[] = [];
  const collect = (d: { value: unknown[] }) => events.push(...(d.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing', transferMode: 'ReportEvents' });
  await during();
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', collect);
  const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const onMain = events.filter((e) => e.ph === 'X' && main.has(`${e.pid}:${e.tid}`));
  const ours = onMain.filter((e) => /\/(widget\.js|chunks\/)/.test(e.args?.data?.url ?? ''));
  const runTasks = onMain.filter((e) => e.name === 'RunTask');
  // Only outermost tasks: a nested run loop's tasks are part of the one that runs it.
  const outer = runTasks.filter(
    (t) => !runTasks.some((o) => o !== t && o.pid === t.pid && o.tid === t.tid && o.ts <= t.ts && o.ts + (o.dur ?? 0) >= t.ts + (t.dur ?? 0) && (o.dur ?? 0) > (t.dur ?? 0)),
  );
  const tasks = outer.map((task) => ({
    ts: task.ts,
    end: task.ts + (task.dur ?? 0),
    ms: (task.dur ?? 0) / 1000,
    cpuMs: (task.tdur ?? 0) / 1000,
    widget: ours.some((e) => e.pid === task.pid && e.tid === task.tid && e.ts >= task.ts && e.ts <= task.ts + (task.dur ?? 0)),
  }));
  const marks = new Map(events.filter((e) => e.name.startsWith('bench:')).map((e) => [e.name, e.ts] as const));
  return { tasks, marks };
}
export type Task = { ts: number; end: number; ms: number; cpuMs: number; widget: boolean };
type TraceEvent = { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: { name?: string; data?: { url?: string } } };
export const longest = (tasks: Task[], pick: (t: Task) => number = (t) => t.ms) => Math.max(0, ...tasks.map(pick));

/**
 * The pointer rests on the launcher until the UI has arrived: the status request (it leaves once the
 * UI's chunks are in) has its answer and the page's main thread has gone idle twice over (or 2 s). (Playwright's
 * 'networkidle' is reached once at page load and never waited for again: under load the UI was
 * still on its way when the bench pressed.)
 */
export async function restOn(page: Page, x: number, y: number): Promise<void> {
  const status = page.waitForResponse((r) => r.url().includes('/api/status'));
  await page.mouse.move(x, y);
  await status;
  // (Bounded: Chromium sometimes grants no idle period at all to a page that has nothing left to do.)
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => requestIdleCallback(resolve, { timeout: 1000 }), { timeout: 1000 })));
}
