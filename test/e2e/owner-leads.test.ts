// The owner acts on leads in real Chromium, on a real relay and simulator: a notification's link
// (#lead=<id>) scrolls to its lead, highlights it and gives it focus; "call back now" on a missed
// lead is placed by the relay (and a second click while it waits is refused, said plainly);
// "never call" asks first in a modal dialog (Esc keeps calling and gives focus back) and then the
// number is refused to the widget. Every result is said in a status message that takes focus.
import { expect, test } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { callsTo } from '../support/held-calls.ts';
import { openOwner, ownerSuite } from '../support/owner-page.ts';
import { postCallback } from '../support/post-callback.ts';

const suite = ownerSuite();

const focusedId = (page: import('playwright-core').Page) => page.evaluate(() => document.activeElement?.id ?? null);

test("a notification's link #lead=<id> scrolls to that lead, highlights it and focuses it, through the token's removal", async () => {
  const id = suite.owner.leads.missed;
  const { page, problems } = await openOwner(suite.browser, suite.owner.system.relayUrl, { hash: `#lead=${id}`, width: 390 });
  try {
    // The token leaves the address; the lead's link stays.
    expect(page.url()).toBe(`${suite.owner.system.relayUrl}/owner#lead=${id}`);
    const row = page.locator(`#lead-${id}`);
    await row.waitFor();
    await expect.poll(() => focusedId(page)).toBe(`lead-${id}`);
    expect(await row.getAttribute('class')).toBe('linked');
    expect(await row.getAttribute('aria-current')).toBe('true');
    // Still in view once every section above it has loaded (each one pushes it down as it arrives).
    await page.locator('#groups tbody tr[data-key="google"]').waitFor();
    await page.locator('#agents [data-login]').first().waitFor();
    const inView = () => row.evaluate((r) => r.getBoundingClientRect().top >= 0 && r.getBoundingClientRect().bottom <= window.innerHeight);
    await expect.poll(inView).toBe(true);
    expect(await page.locator('tr.linked').count()).toBe(1);

    // Another link on the same page moves the highlight.
    const other = suite.owner.leads.answered[0]!;
    await page.evaluate((h) => (location.hash = h), `#lead=${other}`);
    await expect.poll(() => focusedId(page)).toBe(`lead-${other}`);
    expect(await page.locator('tr.linked').getAttribute('id')).toBe(`lead-${other}`);
    expect(await problems()).toEqual([]);
  } finally {
    await page.context().close();
  }
}, 60_000);

test('call back now, from the keyboard: placed by the relay; a second while it waits is refused, said plainly', async () => {
  const { system, clock, leads } = suite.owner;
  // Past the number's cooldown after the missed call, so the relay's limits let it through.
  clock.advance(150_000);
  const { page, problems } = await openOwner(suite.browser, system.relayUrl);
  try {
    const row = page.locator(`#lead-${leads.missed}`);
    const button = row.getByRole('button', { name: /^Call back now \+380 50 \*\*\* \*\*99$/ });
    await button.waitFor();
    // Only missed or failed leads can be called back: never an answered one.
    expect(await page.locator(`#lead-${leads.answered[0]} button`, { hasText: 'Call back now' }).count()).toBe(0);

    await button.focus();
    await page.keyboard.press('Enter');
    const status = page.locator('#action-status');
    await expect.poll(() => status.textContent()).toBe('Calling +380 50 *** **99 back: the call is placed now, within office hours and the number limits.');
    expect(await focusedId(page)).toBe('action-status');
    expect(await status.getAttribute('role')).toBe('status');

    // A second click while the first call waits to be placed: refused, nothing more placed.
    await button.click();
    await expect.poll(() => status.textContent()).toMatch(/^\+380 50 \*\*\* \*\*99 cannot be called back now: A call to this number is already waiting to be placed\.$/);
    expect(await status.getAttribute('class')).toBe('message error');
    expect(await focusedId(page)).toBe('action-status');

    const before = callsTo(system, '+380501110099').length;
    expect(await system.relay.runner.runOnce()).toBe(1);
    expect(callsTo(system, '+380501110099')).toHaveLength(before + 1);
    // The only thing the browser logged: the refused second click's answer.
    expect(await problems()).toEqual(['Failed to load resource: the server responded with a status of 409 (Conflict)']);
  } finally {
    await page.context().close();
  }
}, 60_000);

test('never call this number: asked first in a dialog (Esc keeps calling), then the widget refuses the number', async () => {
  const { system, leads } = suite.owner;
  const id = leads.answered[1]!;
  const { page, problems } = await openOwner(suite.browser, system.relayUrl);
  try {
    const button = page.locator(`#never-${id}`);
    await button.waitFor();
    expect(await button.textContent()).toBe('Never call +380 50 *** **02');

    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Never call +380 50 *** **02?' });
    await dialog.waitFor();
    // The safe choice has focus; the dialog passes axe.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Keep calling');
    expect(await axeViolations(page, [['body']])).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => focusedId(page)).toBe(`never-${id}`);

    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Never call this number' }).click();
    const status = page.locator('#action-status');
    await expect.poll(() => status.textContent()).toBe('+380 50 *** **02 is on the never-call list: it will not be called again.');
    expect(await focusedId(page)).toBe('action-status');

    // The widget's next request for that number is refused.
    const refused = await postCallback(system, { phone: '+380501110002' });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect((refused.json as unknown as { error: { code: string } }).error.code).toBe('number_not_allowed');
    expect(await problems()).toEqual([]);
  } finally {
    await page.context().close();
  }
}, 60_000);
