// The owner view in real Chromium with the shared hostile set (support/hostile-values.ts) in its
// data, as a relay stored it before visitor values were cleaned: held leads whose attribution and
// page are hostile, report facts and opens grouped by them. Every cell the page shows is one clean
// line: no control, line-separator or bidi character reaches the screen, each lead is one row,
// markup stays text, and the page meets no CSP violation or console error.
import { expect, test } from 'vitest';
import { heldJobFor } from '../support/held-calls.ts';
import { FORBIDDEN, HOSTILE_PAGE_URLS, HOSTILE_TEXT } from '../support/hostile-values.ts';
import { openOwner, ownerSuite } from '../support/owner-page.ts';

const suite = ownerSuite();

test('hostile values an older relay stored: each shown on one clean line, one row per lead, markup as text', async () => {
  const { system, clock } = suite.owner;
  const { app } = system.relay;
  const values = Object.values(HOSTILE_TEXT);
  for (const [i, v] of values.entries()) {
    const job = heldJobFor(`+38050125${String(1000 + i)}`, 'scheduled', clock.ms + 86_400_000);
    job.request = { ...job.request, attribution: { utmSource: v, utmMedium: v, utmCampaign: v, clientId: v }, pageUrl: HOSTILE_PAGE_URLS[i % HOSTILE_PAGE_URLS.length]! };
    expect((await app.lifecycle.start(job)).ok).toBe(true);
    const group = { source: v, medium: v, campaign: v, department: v, page: v };
    await app.stores.report.addLead({ callbackId: `old-${i}`, at: clock.ms, requestedAs: 'now', ...group });
    await app.stores.report.countOpen('2026-11-25', group, 'add');
  }
  const { page, problems } = await openOwner(suite.browser, system.relayUrl);
  try {
    const waiting = page.locator('#leads tbody tr[data-callback]');
    await expect.poll(() => waiting.count()).toBe(values.length);
    await expect.poll(() => page.locator('#period-leads-table tbody tr[data-callback]').count()).toBeGreaterThanOrEqual(values.length);
    await expect.poll(() => page.locator('#groups tbody tr[data-key]').count()).toBeGreaterThan(values.length / 2);
    const cells = await page.locator('#leads td, #period-leads-table td, #groups th, #groups td').allTextContents();
    expect(cells.length).toBeGreaterThan(values.length * 6);
    for (const cell of cells) expect(FORBIDDEN.test(cell), JSON.stringify(cell).slice(0, 120)).toBe(false);
    // The whole page as read (innerText has the layout's own line breaks and tabs): no bidi control or separator anywhere.
    expect(await page.locator('body').innerText()).not.toMatch(/[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    // Each waiting lead is one row of seven cells, its page shown as a path of the site or a dash, never a link.
    for (const row of await waiting.all()) expect(await row.locator('td').count()).toBe(7);
    expect(await page.locator('#leads a, #period-leads-table a, #groups a').count()).toBe(0);
    expect(await page.locator('script:not([src])').count()).toBe(0);
    expect(await problems()).toEqual([]);
  } finally {
    await page.context().close();
  }
}, 90_000);
