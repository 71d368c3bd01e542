// The owner view's lead report in real Chromium, on a real relay and simulator after a known mix
// of visits (two answered from a google campaign, one nobody answered, one the service refused):
// the funnel, the uPlot chart and the groups say what the relay's report says, the period and
// grouping pickers work from the keyboard, every time is in the project's zone and every number
// has one mask, the CSP is never violated, axe finds nothing, and a phone needs no sideways scroll.
import { expect, test } from 'vitest';
import type { LeadReport } from '../../server/src/report/lead-report.ts';
import { axeViolations } from '../support/axe.ts';
import { OWNER_TOKEN, openOwner, ownerSuite } from '../support/owner-page.ts';

const suite = ownerSuite();

const api = async <T>(path: string) => (await (await fetch(`${suite.owner.system.relayUrl}${path}`, { headers: { 'x-owner-token': OWNER_TOKEN } })).json()) as T;
/** A masked number in the one style the owner view uses, e.g. `+380 50 *** **01`. */
const MASKED = /^\+\d{1,3} \d\d [* ]+\d\d$/;

test('the funnel, the chart and the groups say what the report says, in one zone and one mask, under the CSP, with axe at 0', async () => {
  const { page, problems } = await openOwner(suite.browser, suite.owner.system.relayUrl);
  try {
    expect(page.url()).toBe(`${suite.owner.system.relayUrl}/owner`);
    await page.locator('#groups tbody tr[data-key="google"]').waitFor();
    await expect.poll(() => page.locator('#time-zone').textContent()).toBe('All times in Europe/Kyiv');

    // The default period is the project's last 7 days, today (by the relay's clock) included.
    const report = await api<LeadReport>('/owner/api/report?from=2026-11-19&to=2026-11-25&by=source');
    expect(report.totals).toMatchObject({ requested: 4, placed: 3, answered: 2, talked: 2, missed: 1, failed: 1 });
    for (const step of ['opened', 'requested', 'placed', 'answered', 'talked'] as const) {
      expect(await page.locator(`.funnel [data-step="${step}"] strong`).textContent(), step).toBe(String(report.totals[step]));
    }
    expect(await page.locator('.funnel [data-step="talked"] .step').textContent()).toBe('Talked 1 s or more');
    expect(await page.locator('[data-outcome="missed"] dd').textContent()).toBe('1');
    expect(await page.locator('[data-outcome="failed"] dd').textContent()).toBe('1');
    expect(await page.locator('[data-outcome="median"] dd').textContent()).toMatch(/^\d+ s$/);
    const google = page.locator('#groups tbody tr[data-key="google"]');
    expect(await google.locator('[data-col="answered"]').textContent()).toBe('2');
    expect(await page.locator('#groups tbody tr[data-key="facebook"] [data-col="missed"]').textContent()).toBe('1');
    expect(await page.locator('#groups tbody tr[data-key="bing"] [data-col="failed"]').textContent()).toBe('1');

    // uPlot drew the 7 days on its canvas; the figure is named for screen readers, and the same
    // figures are a table.
    const chart = page.locator('.chart');
    expect(await chart.getAttribute('data-days')).toBe('7');
    expect(await chart.locator('canvas').evaluate((c: HTMLCanvasElement) => c.width)).toBeGreaterThan(200);
    expect(await chart.getAttribute('aria-label')).toContain('4 asked, 2 answered, 2 talked, 1 missed, 1 failed');
    expect(await page.locator('#per-day tbody tr').count()).toBe(7);
    expect(await page.locator('#per-day tbody tr[data-date="2026-11-25"] td').nth(1).textContent()).toBe('4');

    // The period's leads: one mask for every number, on every table; times in Kyiv (12:00 there).
    const leads = page.locator('#period-leads-table tbody tr[data-callback]');
    await expect.poll(() => leads.count()).toBe(4);
    // Every lead is a job, the one the service refused too: each shows its masked number, none a dash.
    const numbers = await page.locator('#period-leads-table .number, #calls .number').allTextContents();
    expect(numbers.length).toBeGreaterThanOrEqual(4);
    for (const n of numbers) expect(n).toMatch(MASKED);
    expect(await page.locator(`#period-leads-table tr[data-callback="${suite.owner.leads.missed}"] td`).first().textContent()).toBe('25 Nov, 12:00');
    expect(await page.locator(`#period-leads-table tr[data-callback="${suite.owner.leads.missed}"] .state`).textContent()).toBe('Missed');
    expect(await page.locator(`#period-leads-table tr[data-callback="${suite.owner.leads.answered[0]}"] .state`).textContent()).toBe('Answered');

    expect(await axeViolations(page, [['body']])).toEqual([]);
    // The custom period's form and the confirm dialog are checked in their own states too.
    await page.getByLabel('Custom').check();
    await page.getByLabel('From', { exact: true }).waitFor();
    expect(await axeViolations(page, [['body']])).toEqual([]);
    expect(await problems()).toEqual([]);
  } finally {
    await page.context().close();
  }
}, 60_000);

test('the period and the grouping are picked with the keyboard; a custom period is checked; the CSV is offered for the same query', async () => {
  const { page, problems } = await openOwner(suite.browser, suite.owner.system.relayUrl);
  try {
    await page.locator('#groups tbody tr[data-key="google"]').waitFor();
    // Arrow keys move between the period's choices, as in any radio group.
    await page.getByLabel('7 days').focus();
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByLabel('Today').isChecked()).toBe(true);
    await expect.poll(() => page.locator('#report-summary').textContent()).toMatch(/^Wed 25 Nov – Wed 25 Nov, days in Europe\/Kyiv/);
    expect(await page.locator('#per-day tbody tr').count()).toBe(1);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await page.getByLabel('30 days').isChecked()).toBe(true);
    await expect.poll(() => page.locator('#per-day tbody tr').count()).toBe(30);

    await page.getByLabel('Group by').selectOption('campaign');
    await page.locator('#groups tbody tr[data-key="spring"]').waitFor();
    expect(await page.locator('#groups thead th').first().textContent()).toBe('utm campaign');
    const csv = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(csv).toBe('/owner/api/report.csv?from=2026-10-27&to=2026-11-25&by=campaign');
    // The link works with the page's own session (its cookie), as a click would send it.
    const download = await page.request.get(`${suite.owner.system.relayUrl}${csv}`);
    expect(download.status()).toBe(200);
    expect(await download.text()).toMatch(/^"campaign","opened","requested"/);

    // Custom: the last day before the first is refused on the page, said out loud, not sent.
    await page.getByLabel('Custom').check();
    await page.getByLabel('From', { exact: true }).fill('2026-11-25');
    await page.getByLabel('To', { exact: true }).fill('2026-11-20');
    await page.getByRole('button', { name: 'Show' }).click();
    expect(await page.getByRole('alert').filter({ hasText: 'The first day must not be after the last.' }).count()).toBe(1);
    await page.getByLabel('From', { exact: true }).fill('2026-11-24');
    await page.getByLabel('To', { exact: true }).fill('2026-11-25');
    await page.getByLabel('To', { exact: true }).press('Enter');
    await expect.poll(() => page.locator('#per-day tbody tr').count()).toBe(2);
    expect(await page.locator('#groups tbody tr[data-key="spring"] [data-col="requested"]').textContent()).toBe('2');
    expect(await problems()).toEqual([]);
  } finally {
    await page.context().close();
  }
}, 60_000);

test('on a phone (360 px wide) nothing needs a sideways scroll, and axe finds nothing', async () => {
  const { page, problems } = await openOwner(suite.browser, suite.owner.system.relayUrl, { width: 360 });
  try {
    await page.locator('#groups tbody tr[data-key="google"]').waitFor();
    await page.locator('#period-leads-table tbody tr[data-callback]').first().waitFor();
    await page.locator('#calls tbody tr').first().waitFor();
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(widths.client).toBe(360);
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    // uPlot was sized to the card, not to a desktop width.
    expect(await page.locator('.chart canvas').evaluate((c) => c.getBoundingClientRect().right)).toBeLessThanOrEqual(360);
    expect(await axeViolations(page, [['body']])).toEqual([]);
    expect(await problems()).toEqual([]);
  } finally {
    await page.context().close();
  }
}, 60_000);

// Last in this file: it adds 105 sources' opens on 1 Nov, outside the 7 days the other tests read.
test('a period with more groups than the relay lists: the first 100, then "Other groups" and a note that says so; axe at 0', async () => {
  const report = suite.owner.system.relay.app.stores.report;
  for (let i = 0; i < 105; i++) {
    const group = { source: `partner-${String(i).padStart(3, '0')}`, medium: 'referral', campaign: '', department: '', page: '/' };
    for (let n = 0; n <= i; n++) await report.countOpen('2026-11-01', group, 'add');
  }
  const answer = await api<LeadReport>('/owner/api/report?from=2026-10-27&to=2026-11-25&by=source');
  expect(answer.truncated).toBe(true);
  expect(answer.groups).toHaveLength(101);
  const { page, problems } = await openOwner(suite.browser, suite.owner.system.relayUrl);
  try {
    await page.locator('#groups tbody tr[data-key="google"]').waitFor();
    expect(await page.locator('#groups-cut').count()).toBe(0);
    await page.getByLabel('30 days').check();
    await page.locator('#groups tbody tr[data-key="(other)"]').waitFor();
    expect(await page.locator('#groups tbody tr').count()).toBe(101);
    expect(await page.locator('#groups tbody tr').last().getAttribute('data-key')).toBe('(other)');
    const other = answer.groups.at(-1)!;
    expect(await page.locator('#groups tr[data-key="(other)"] th').textContent()).toBe('Other groups');
    expect(await page.locator('#groups tr[data-key="(other)"] [data-col="opened"]').textContent()).toBe(String(other.opened));
    expect(await page.locator('#groups-cut').textContent()).toBe(
      'Only the 100 groups with the most leads, then opens, are listed; all the others are summed in the last row, “Other groups”.',
    );
    // The funnel and the footer still count every open: nothing is lost, only not listed.
    expect(await page.locator('#groups tfoot [data-col="opened"]').textContent()).toBe(String(answer.totals.opened));
    expect(await axeViolations(page, [['body']])).toEqual([]);
    expect(await problems()).toEqual([]);
  } finally {
    await page.context().close();
  }
}, 60_000);
