// The lead report's "opened" column, fed by the widget itself in real Chromium: nothing at page load,
// one open per page view when the dialog first opens (closing and opening again counts nothing more),
// grouped under the campaign of the landing page's address, with the page's path.
import { expect, test } from 'vitest';
import type { LeadReport } from '../../server/src/report/lead-report.ts';
import { useStage } from '../support/stage.ts';
import { widget } from '../support/widget-page.ts';

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
