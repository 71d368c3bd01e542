// The lead report's "opened" column, fed by the widget itself in real Chromium: nothing at page load,
// one open per page view when the dialog first opens (closing and opening again counts nothing more),
// grouped under the campaign of the landing page's address, with the page's path; and an open over
// the limits answered so that the visitor's console stays clean.
import { expect, test } from 'vitest';
import { OPENS_PER_CLIENT } from '../../server/src/report/count-open.ts';
import type { LeadReport } from '../../server/src/report/lead-report.ts';
import { useStage } from '../support/stage.ts';
import { consoleOf, widget } from '../support/widget-page.ts';

const OWNER_TOKEN = 'owner_e2e_beacon_0123456789abcdef';
const stage = useStage((hostUrl) => ({ ALLOWED_ORIGINS: hostUrl, OWNER_TOKEN }));

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
async function opened(by: 'source' | 'page'): Promise<Record<string, number>> {
  const response = await fetch(`${stage.system.relayUrl}/owner/api/report?from=${day(-1)}&to=${day(1)}&by=${by}`, { headers: { 'x-owner-token': OWNER_TOKEN } });
  const report = (await response.json()) as LeadReport;
  return Object.fromEntries(report.groups.filter((g) => g.opened).map((g) => [g.key, g.opened]));
}

test('one open per page view, counted when the dialog first opens, under the landing campaign and the page path', async () => {
  const url = stage.host.page('/pricing', { relayUrl: stage.system.relayUrl }) + '?utm_source=newsletter&utm_medium=email&utm_campaign=nov';
  const context = await stage.browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(url);
    const w = widget(page);
    await w.launcher.waitFor();
    await page.waitForLoadState('networkidle');
    expect(await opened('source')).toEqual({});

    await w.launcher.click();
    await w.dialog.waitFor();
    await expect.poll(() => opened('source')).toEqual({ newsletter: 1 });
    expect(await opened('page')).toEqual({ '/pricing': 1 });

    // Closed and opened again in the same page view: no second open. A new page view counts again
    // (had the second open of the first view sent a beacon, it would have arrived before this one).
    await page.keyboard.press('Escape');
    await w.dialog.waitFor({ state: 'detached' });
    await w.launcher.click();
    await w.dialog.waitFor();
    await page.reload();
    await w.launcher.click();
    await w.dialog.waitFor();
    await expect.poll(() => opened('source')).not.toEqual({ newsletter: 1 });
    expect(await opened('source')).toEqual({ newsletter: 2 });
  } finally {
    await context.close();
  }
});

test("an open over the limit of its client is not counted, and the page's console shows no error for it", async () => {
  // Every page view here comes from 127.0.0.1: one client, OPENS_PER_CLIENT opens an hour.
  const views = OPENS_PER_CLIENT + 2;
  const url = stage.host.page('/contact', { relayUrl: stage.system.relayUrl }) + '?utm_source=limit';
  const context = await stage.browser.newContext();
  const page = await context.newPage();
  const console = consoleOf(page);
  const answers: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/opened') answers.push(response.status());
  });
  try {
    for (let view = 1; view <= views; view++) {
      await page.goto(url);
      const w = widget(page);
      await w.launcher.click();
      await w.dialog.waitFor();
      await expect.poll(() => answers.length).toBe(view);
    }
    expect(answers).toEqual(new Array(views).fill(204));
    expect(console.lines.filter((line) => line.startsWith('error'))).toEqual([]);
    expect(console.errors).toEqual([]);
    const response = await fetch(`${stage.system.relayUrl}/owner/api/report?from=${day(-1)}&to=${day(1)}`, { headers: { 'x-owner-token': OWNER_TOKEN } });
    expect(((await response.json()) as LeadReport).totals.opened).toBe(OPENS_PER_CLIENT);
  } finally {
    await context.close();
  }
});
