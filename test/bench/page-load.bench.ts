// What the widget costs a host page, measured in real Chromium with 4× CPU throttling through the
// Chrome DevTools Protocol: requests at page load, long tasks, layout shift, and how fast the
// launcher appears and the dialog opens, next to the same page without the widget. Plus the
// built sizes (gzip). Prints one table; `npm run bench` (or `npm run bench page-load`).
import { existsSync } from 'node:fs';
import type { CDPSession, Page } from 'playwright-core';
import { launchChromium } from '../support/browser.ts';
import { startSystem } from '../support/system.ts';
import { startHostSite } from '../support/host-site.ts';
import { budgets, distDir, widgetSizes } from '../support/widget-size.ts';

const runs = Number(process.env.BENCH_RUNS ?? 5);
const throttle = 4;

if (!existsSync(distDir)) {
  console.error('dist/widget is missing: run `npm run build` first');
  process.exit(1);
}

interface Sample {
  requests: number;
  relayRequests: number;
  /** Long tasks from navigation until the page has loaded and settled (before any interaction). */
  longTasks: number;
  longTaskMs: number;
  layoutShift: number;
  launcherMs: number | null;
  intentToDialogMs: number | null;
  /** Long tasks while the dialog opened (UI chunk parsed and rendered, after the visitor's click). */
  intentLongTaskMs: number | null;
  /** The longest of them (the budget: ≤ 50 ms, the threshold of a long task). */
  intentLongestTaskMs: number | null;
  /** The longest task of any length while the dialog opens, from a trace (a run of its own). */
  intentLongestTracedTaskMs: number | null;
}

const emptySample: Sample = {
  requests: 0,
  relayRequests: 0,
  longTasks: 0,
  longTaskMs: 0,
  layoutShift: 0,
  launcherMs: null,
  intentToDialogMs: null,
  intentLongTaskMs: null,
  intentLongestTaskMs: null,
  intentLongestTracedTaskMs: null,
};

type Marks = { longTasks: number[]; shift: number; launcherAt: number | null };
const marks = (page: Page) =>
  page.evaluate(() => ({ ...(window as unknown as { __bench: Marks }).__bench, longTasks: [...(window as unknown as { __bench: Marks }).__bench.longTasks] }));

// Collects long tasks and layout shifts from navigation start, and when the launcher appeared.
const observe = `(() => {
  const m = (window.__bench = { longTasks: [], shift: 0, launcherAt: null });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) m.longTasks.push(e.duration); }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) m.shift += e.value; }).observe({ type: 'layout-shift', buffered: true });
  new MutationObserver(() => {
    const el = document.querySelector('dialback-widget');
    if (el && el.shadowRoot && el.shadowRoot.querySelector('.launcher') && m.launcherAt === null) m.launcherAt = performance.now();
  }).observe(document, { childList: true, subtree: true });
})();`;

/**
 * The longest task of the page's main thread (CrRendererMain) while `during` runs, from a Chrome
 * trace: every task, not only those over 50 ms that the Long Tasks API reports, so the figure shows
 * how far under the threshold the opening stays. Tracing slows the page a little: an upper bound.
 */
async function longestTracedTask(cdp: CDPSession, during: () => Promise<void>): Promise<number> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (d) => {
    events.push(...(d.value as unknown as TraceEvent[]));
  });
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: 'disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  await during();
  await cdp.send('Tracing.end');
  await complete;
  const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`));
  return Math.max(0, ...tasks.map((e) => (e.dur ?? 0) / 1000));
}
type TraceEvent = { name: string; ph: string; pid: number; tid: number; dur?: number; args?: { name?: string } };

async function measure(page: Page, url: string, relayUrl: string, withWidget: boolean, traced = false): Promise<Sample> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.addInitScript(observe);
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  const atLoad = [...requests];
  // Playwright's first locator evaluates its own injected script in the page (30–40 ms at 4× CPU):
  // done before the marks are read, so the opening's long tasks are the widget's alone.
  if (withWidget) await page.locator('dialback-widget button.launcher').waitFor();
  const m = await marks(page);
  let intentToDialogMs: number | null = null;
  let intentLongTaskMs: number | null = null;
  let intentLongestTaskMs: number | null = null;
  if (withWidget) {
    const launcher = page.locator('dialback-widget button.launcher');
    const started = Date.now();
    const open = async () => {
      await launcher.hover();
      await launcher.click();
      await page.getByRole('dialog').waitFor();
      intentToDialogMs = Date.now() - started;
      await page.waitForTimeout(200);
    };
    if (traced) {
      const longest = await longestTracedTask(cdp, open);
      await cdp.detach();
      return { ...emptySample, intentLongestTracedTaskMs: longest };
    }
    await open();
    const opening = (await marks(page)).longTasks.slice(m.longTasks.length);
    intentLongTaskMs = opening.reduce((a, b) => a + b, 0);
    intentLongestTaskMs = Math.max(0, ...opening);
  }
  await cdp.detach();
  return {
    requests: atLoad.length,
    relayRequests: atLoad.filter((u) => u.startsWith(relayUrl)).length,
    longTasks: m.longTasks.length,
    longTaskMs: m.longTasks.reduce((a, b) => a + b, 0),
    layoutShift: m.shift,
    launcherMs: m.launcherAt,
    intentToDialogMs,
    intentLongTaskMs,
    intentLongestTaskMs,
    intentLongestTracedTaskMs: null,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};

const host = await startHostSite();
const system = await startSystem({ ALLOWED_ORIGINS: host.url, LOG_LEVEL: 'error' });
const browser = await launchChromium();
try {
  const plainHead = '<style>body{font:16px/1.5 system-ui;margin:2rem}</style>';
  const withUrl = host.page('/bench', { relayUrl: system.relayUrl, head: plainHead });
  const withoutUrl = host.page('/bench-baseline', { relayUrl: system.relayUrl, head: plainHead, noScript: true });
  const samples: { with: Sample[]; without: Sample[]; traced: Sample[] } = { with: [], without: [], traced: [] };
  for (let i = 0; i < runs; i++) {
    for (const [key, url] of [
      ['without', withoutUrl],
      ['with', withUrl],
      ['traced', withUrl],
    ] as const) {
      const context = await browser.newContext();
      const page = await context.newPage();
      // The host page's own stylesheet is the hostile one; keep it out of a timing benchmark.
      await page.route('**/hostile.css', (route) => route.fulfill({ status: 200, contentType: 'text/css', body: '' }));
      samples[key].push(await measure(page, url, system.relayUrl, key !== 'without', key === 'traced'));
      await context.close();
    }
  }
  const sizes = widgetSizes();
  const col = (pick: (s: Sample) => number | null, key: keyof typeof samples, digits = 0) => {
    const values = samples[key].map(pick).filter((v): v is number => v !== null);
    return values.length ? median(values).toFixed(digits) : '–';
  };
  const rows: Array<[string, string, string]> = [
    ['requests at page load (all)', col((s) => s.requests, 'without'), col((s) => s.requests, 'with')],
    ['requests at page load to the relay', col((s) => s.relayRequests, 'without'), col((s) => s.relayRequests, 'with')],
    ['long tasks (count)', col((s) => s.longTasks, 'without'), col((s) => s.longTasks, 'with')],
    ['long tasks (total ms)', col((s) => s.longTaskMs, 'without'), col((s) => s.longTaskMs, 'with')],
    ['cumulative layout shift', col((s) => s.layoutShift, 'without', 4), col((s) => s.layoutShift, 'with', 4)],
    ['launcher visible after (ms from navigation)', '–', col((s) => s.launcherMs, 'with')],
    ['first intent → dialog open (ms, hover + click)', '–', col((s) => s.intentToDialogMs, 'with')],
    ['long tasks while the dialog opens (total ms)', '–', col((s) => s.intentLongTaskMs, 'with')],
    ['longest task while the dialog opens (ms)', '–', col((s) => s.intentLongestTaskMs, 'with')],
    ['  the same, any task, from a trace (ms)', '–', col((s) => s.intentLongestTracedTaskMs, 'traced')],
  ];
  console.log(`\nPage load with and without the widget: Chromium, ${throttle}× CPU throttling, median of ${runs} runs\n`);
  console.log('| metric | page without widget | page with widget |');
  console.log('|---|---:|---:|');
  for (const [name, a, b] of rows) console.log(`| ${name} | ${a} | ${b} |`);
  console.log('\nBuilt sizes (gzip, bytes)\n');
  console.log('| part | gzip | budget |');
  console.log('|---|---:|---:|');
  console.log(`| entry widget.js | ${sizes.entry.gzip} | ${budgets.entry} |`);
  console.log(`| UI (${sizes.ui.files.map((f) => f.replace(/^chunks\/|-[\w-]+\.js$/g, '')).join(' + ')}) | ${sizes.ui.gzip} | ${budgets.ui} |`);
  for (const f of sizes.optional) console.log(`| optional: ${f.file.replace(/^chunks\/|-[\w-]+\.js$/g, '')} | ${f.gzip} | |`);
  console.log(`| language catalogs | ${sizes.catalogs.map((c) => c.gzip).join(' / ')} | |`);
  console.log(`| the picker (${sizes.schedule.files.map((f) => f.replace(/^chunks\/|-[\w-]+\.js$/g, '')).join(' + ')}) | ${sizes.schedule.gzip} | ${budgets.schedule} |`);
  console.log(`| one visitor, everything it can load | ${sizes.perVisitor} | ${budgets.perVisitor} |`);
  console.log(`| every file in dist/widget | ${sizes.all} | |`);
} finally {
  await browser.dispose();
  await system.close();
  await host.close();
}
