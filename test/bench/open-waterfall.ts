// Where the click at once's time goes without a tracer in the way: the page-load bench's opening
// (first pointer event on the launcher, press at once, first frame showing the dialog), repeated,
// with each request the opening made as the page's Resource Timing saw it (start and end, ms from
// the first pointer event). A diagnosis tool beside page-load-trace.ts, whose tracing stretches
// every step; not a benchmark.
//   node test/bench/open-waterfall.ts [runs, default 5]
import { launchChromium } from '../support/browser.ts';
import { startHostSite } from '../support/host-site.ts';
import { startSystem } from '../support/system.ts';
import { benchPageHead, frameSeen, launcherCentre, marks, observe } from './page-load-probe.ts';

const runs = Number(process.argv[2] ?? 5);
const host = await startHostSite();
const system = await startSystem({ ALLOWED_ORIGINS: host.url, LOG_LEVEL: 'error' });
const browser = await launchChromium();
const spans: number[] = [];
try {
  const url = host.page('/waterfall', { relayUrl: system.relayUrl, head: benchPageHead });
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.addInitScript(observe);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    // As the bench: the pointer starts away from the launcher, then enters it and presses at once.
    const [x, y] = await launcherCentre(page);
    await page.mouse.move(x - 200, y - 200);
    const seen = frameSeen(page);
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.up();
    await seen;
    const m = await marks(page);
    const requests = await page.evaluate(
      (t0) =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((r) => r.startTime >= t0 - 1)
          .map((r) => `${r.name.replace(/^.*\//, '').padEnd(24)} ${(r.startTime - t0).toFixed(0).padStart(5)} → ${(r.responseEnd - t0).toFixed(0).padStart(5)}`),
      m.intentAt!,
    );
    spans.push(m.dialogFrameAt! - m.intentAt!);
    console.log(`run ${run + 1}: first pointer event → first frame ${(m.dialogFrameAt! - m.intentAt!).toFixed(0)} ms`);
    for (const r of requests) console.log(`  ${r}`);
    await context.close();
  }
  spans.sort((a, b) => a - b);
  console.log(`median ${spans[Math.floor(spans.length / 2)]!.toFixed(0)} ms`);
} finally {
  await browser.dispose();
  await system.close();
  await host.close();
}
