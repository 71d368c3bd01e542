// Where the widget's main-thread time goes, from a Chrome trace (not a benchmark: a diagnosis tool
// for the page-load bench's figures). Loads the bench page at 4× CPU, then opens the dialog, and
// prints for each phase the main thread's tasks over `min` ms with what they were made of (trace
// events by self time: script compilation and evaluation, style, layout, paint…) and the JavaScript
// functions that took the most self time in them (V8's sampling profiler, in the same trace).
// The opening is timed in the page as the bench times it (first pointer event → first frame).
//   node test/bench/page-load-trace.ts [min-ms, default 10] [hover] [timeline]
// `timeline`: without the sampling profiler (which stretches JavaScript about twofold), the opening
// as one list on the page's clock: every main-thread task over 1 ms and each request's start,
// response and end, so waits for the network show between the tasks.
// `hover`: the pointer rests on the launcher until the UI has arrived, then presses (the bench's
// "usual pace" run); without it, the pointer enters and presses at once (the worst case).
import type { CDPSession, Page } from 'playwright-core';
import { launchChromium } from '../support/browser.ts';
import { startHostSite } from '../support/host-site.ts';
import { startSystem } from '../support/system.ts';
import { benchPageHead, frameSeen, launcherCentre, marks, observe, restOn } from './page-load-probe.ts';

const min = Number(process.argv[2] ?? 10);
const hover = process.argv.includes('hover');
const timeline = process.argv.includes('timeline');

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** The thread's own (CPU) time. */
  tdur?: number;
  id?: string;
  args?: { name?: string; data?: { cpuProfile?: CpuProfileChunk; timeDeltas?: number[]; url?: string; functionName?: string } };
}
interface CpuProfileChunk {
  nodes?: Array<{ id: number; parent?: number; callFrame: { functionName: string; url?: string; lineNumber: number; columnNumber: number } }>;
  samples?: number[];
}

async function trace(cdp: CDPSession, during: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const onData = (d: { value: unknown[] }) => events.push(...(d.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', onData);
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'v8.execute',
      ...(timeline ? [] : ['disabled-by-default-v8.cpu_profiler']),
      'blink.user_timing',
      'loading',
    ].join(','),
    transferMode: 'ReportEvents',
  });
  await during();
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', onData);
  return events;
}

/** Samples of V8's profiler as [timestamp µs, leaf function "name (file:line)"]. */
function samples(events: TraceEvent[], pid: number): Array<[number, string]> {
  const nodes = new Map<number, string>();
  const out: Array<[number, string]> = [];
  const start = events.find((e) => e.name === 'Profile' && e.pid === pid);
  let ts = start ? ((start.args?.data as { startTime?: number } | undefined)?.startTime ?? start.ts) : 0;
  for (const e of events.filter((x) => x.name === 'ProfileChunk' && x.pid === pid)) {
    const chunk = e.args?.data?.cpuProfile;
    for (const n of chunk?.nodes ?? []) {
      const f = n.callFrame;
      const file = (f.url ?? '').replace(/^.*\//, '');
      nodes.set(n.id, f.functionName || file ? `${f.functionName || '(anonymous)'} (${file}:${f.lineNumber + 1}:${f.columnNumber + 1})` : '(program)');
    }
    const deltas = e.args?.data?.timeDeltas ?? [];
    (chunk?.samples ?? []).forEach((id, i) => {
      ts += deltas[i] ?? 0;
      out.push([ts, nodes.get(id) ?? String(id)]);
    });
  }
  return out;
}

/** The opening as one list: tasks over 1 ms (with their largest parts) and requests, on the page's clock. */
function printTimeline(events: TraceEvent[]) {
  const count = (m: TraceEvent) => events.filter((x) => x.pid === m.pid && x.tid === m.tid && x.name === 'RunTask').length;
  const main = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').sort((a, b) => count(b) - count(a))[0];
  if (!main) return;
  const intent = events.find((e) => e.name === 'bench:intent' && e.pid === main.pid)?.ts ?? 0;
  const rows: Array<[number, string]> = [];
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
  for (const task of onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) >= 1000 && e.ts >= intent - 5000)) {
    const parts = onMain
      .filter((e) => e !== task && e.name !== 'RunTask' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur!)
      .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
      .slice(0, 3)
      .map(
        (e) =>
          `${e.name}${e.args?.data?.url ? ` ${e.args.data.url.replace(/^.*\//, '')}` : ''}${e.args?.data?.functionName ? ` ${e.args.data.functionName}` : ''} ${((e.dur ?? 0) / 1000).toFixed(1)}`,
      );
    rows.push([task.ts, `task ${(task.dur! / 1000).toFixed(1)} ms (CPU ${((task.tdur ?? 0) / 1000).toFixed(1)}): ${parts.join(', ')}`]);
  }
  const urls = new Map<string, string>();
  for (const e of events.filter((x) => x.name.startsWith('Resource') && x.ts >= intent - 5000)) {
    const d = e.args?.data as { requestId?: string; url?: string } | undefined;
    if (d?.url) urls.set(d.requestId ?? '', d.url.replace(/^.*\//, ''));
    if (['ResourceSendRequest', 'ResourceReceiveResponse', 'ResourceFinish'].includes(e.name))
      rows.push([e.ts, `${e.name.replace('Resource', '')} ${urls.get(d?.requestId ?? '') ?? d?.requestId}`]);
  }
  for (const mark of events.filter((e) => e.name.startsWith('bench:') && e.pid === main.pid)) rows.push([mark.ts, mark.name]);
  const frame = events.find((e) => e.name === 'bench:frame' && e.pid === main.pid)?.ts ?? Infinity;
  const spanned = onMain.filter((e) => e.name === 'RunTask' && e.ts >= intent && e.ts < frame);
  const cpu = spanned.reduce((sum, e) => sum + (e.tdur ?? 0), 0) / 1000;
  console.log(`\nmain-thread CPU from the first pointer event to the frame: ${cpu.toFixed(1)} ms in ${spanned.length} tasks`);
  console.log('\n### the opening, on the page clock (ms from the first pointer event)');
  for (const [ts, what] of rows.sort((a, b) => a[0] - b[0])) if (ts - intent < 1500_000) console.log(`${((ts - intent) / 1000).toFixed(1).padStart(8)}  ${what}`);
}

function report(label: string, events: TraceEvent[]) {
  if (timeline) return label === 'page load' ? undefined : printTimeline(events);
  // The page's renderer: the main thread that ran the most tasks (about:blank's renderer runs few).
  const count = (m: TraceEvent) => events.filter((x) => x.pid === m.pid && x.tid === m.tid && x.name === 'RunTask').length;
  const mainThread = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').sort((a, b) => count(b) - count(a))[0];
  if (!mainThread) return console.log(`${label}: no renderer main thread in the trace`);
  const onMain = events.filter((e) => e.pid === mainThread.pid && e.tid === mainThread.tid && e.ph === 'X');
  const prof = samples(events, mainThread.pid);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) / 1000 >= min);
  const t0 = Math.min(...onMain.map((e) => e.ts));
  console.log(`\n### ${label}: main-thread tasks ≥ ${min} ms (${tasks.length})`);
  // The bench's marks on the same clock: the opening's span is the tasks between them.
  for (const mark of events.filter((e) => e.name.startsWith('bench:') && e.pid === mainThread.pid)) console.log(`  ${mark.name} at ${((mark.ts - t0) / 1000).toFixed(0)} ms`);
  for (const task of tasks) {
    const end = task.ts + task.dur!;
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end);
    // Self time of each event: its duration minus its direct children's.
    const self = new Map<string, number>();
    for (const e of inside) {
      const children = inside.filter((c) => c !== e && c.ts >= e.ts && c.ts + (c.dur ?? 0) <= e.ts + (e.dur ?? 0));
      const direct = children.filter((c) => !children.some((p) => p !== c && c.ts >= p.ts && c.ts + (c.dur ?? 0) <= p.ts + (p.dur ?? 0) && p.dur! > c.dur!));
      const key = e.name + (e.args?.data?.url ? ` ${e.args.data.url.replace(/^.*\//, '')}` : '') + (e.args?.data?.functionName ? ` ${e.args.data.functionName}` : '');
      self.set(key, (self.get(key) ?? 0) + ((e.dur ?? 0) - direct.reduce((s, c) => s + (c.dur ?? 0), 0)) / 1000);
    }
    console.log(`\n- task at ${((task.ts - t0) / 1000).toFixed(0)} ms, ${(task.dur! / 1000).toFixed(1)} ms (CPU ${((task.tdur ?? 0) / 1000).toFixed(1)} ms)`);
    for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 10)) if (v >= 0.5) console.log(`    ${v.toFixed(1).padStart(6)} ms  ${k}`);
    const fns = new Map<string, number>();
    const inTask = prof.filter(([ts]) => ts >= task.ts && ts <= end);
    for (let i = 0; i < inTask.length; i++) {
      const next = inTask[i + 1]?.[0] ?? end;
      fns.set(inTask[i]![1], (fns.get(inTask[i]![1]) ?? 0) + (next - inTask[i]![0]) / 1000);
    }
    const top = [...fns].sort((a, b) => b[1] - a[1]).slice(0, 8);
    if (top.length) console.log('    JS self time (sampled):');
    for (const [k, v] of top) if (v >= 0.5) console.log(`    ${v.toFixed(1).padStart(6)} ms  ${k}`);
  }
}

const host = await startHostSite();
const system = await startSystem({ ALLOWED_ORIGINS: host.url, LOG_LEVEL: 'error' });
const browser = await launchChromium();
try {
  const url = host.page('/trace', { relayUrl: system.relayUrl, head: benchPageHead });
  const context = await browser.newContext();
  const page: Page = await context.newPage();
  await page.route('**/hostile.css', (route) => route.fulfill({ status: 200, contentType: 'text/css', body: '' }));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.addInitScript(observe);
  report(
    'page load',
    await trace(cdp, async () => {
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(500);
    }),
  );
  const [x, y] = await launcherCentre(page);
  // Raw input, as the bench sends it: no injected script of the driver's runs in the page meanwhile.
  await page.mouse.move(x - 200, y - 200);
  const events = await trace(cdp, async () => {
    // The sampling profiler starts with a task of its own at the page's next script (V8.
    // InvokeApiInterruptCallbacks, 100–1,600 ms at 4× CPU): let it be this one, not the first input's.
    const seen = frameSeen(page);
    await page.waitForTimeout(500);
    if (hover) await restOn(page, x, y);
    else await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.up();
    await seen;
    await page.waitForTimeout(500);
  });
  report(hover ? 'press, the UI already there → dialog' : 'first intent → dialog', events);
  const m = await marks(page);
  console.log(`\nIn the page: ${hover ? 'press' : 'first pointer event'} → first frame ${(m.dialogFrameAt! - (hover ? m.pressAt! : m.intentAt!)).toFixed(0)} ms`);
  await context.close();
} finally {
  await browser.dispose();
  await system.close();
  await host.close();
}
