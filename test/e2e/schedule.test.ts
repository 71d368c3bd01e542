// "Call me later" in real Chromium against the real relay, keyboard only and axe-clean, for a visitor
// in New York while the office keeps Kyiv hours (Mon–Fri 09:00–18:00). Both clocks are fixed at the
// same instant (the relay's `now`, the page's clock), a Tuesday evening in Kyiv, so the office is
// closed and the slots are known: the visitor books Thursday 03:30 (their time, 10:30 in Kyiv), sees
// the booked state, and cancels it. The relay is asked what it holds at each step. And a call the
// phone system provably never got (it is unreachable) is held: the widget says so, and it can be
// cancelled too.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import type { CallbackProgress } from '../../server/src/contract/contract.ts';
import { axeViolations } from '../support/axe.ts';
import { deadUrl } from '../support/listen.ts';
import { startSystem } from '../support/system.ts';
import { useStage } from '../support/stage.ts';
import { widget } from '../support/widget-page.ts';

const officeZone = 'Europe/Kyiv';
const visitorZone = 'America/New_York';
/** Tuesday 8 January 2030, 22:00 in Kyiv (closed), 15:00 in New York. Far from the machine's real date. */
const now = new Date('2030-01-08T20:00:00Z');

const stage = useStage((hostUrl) => ({ ALLOWED_ORIGINS: hostUrl, WORKING_HOURS: 'Mon-Fri 09:00-18:00', TIMEZONE: officeZone }), { now: () => new Date(now) });

/** What has focus inside the widget: a control's label (fields and radios by their label), else its name or text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.querySelector('dialback-widget')?.shadowRoot?.activeElement as HTMLInputElement | null;
    if (!el) return null;
    return el.labels?.[0]?.textContent?.trim() || el.getAttribute('aria-label') || el.textContent?.trim() || el.className;
  });

async function progressAtRelay(requestId: string): Promise<CallbackProgress> {
  const res = await fetch(`${stage.system.relayUrl}/api/callback/${requestId}`, { headers: { origin: stage.host.url } });
  return (await res.json()) as CallbackProgress;
}

test('keyboard only, in New York: book Thursday 03:30 AM, see it booked, cancel it; axe-clean throughout', async () => {
  const context = await stage.browser.newContext({ timezoneId: visitorZone });
  const page = await context.newPage();
  try {
    await page.clock.setFixedTime(now);
    // The page learns the booking through the widget's event (never the number).
    await page.addInitScript(() => {
      (window as unknown as { __booked: unknown[] }).__booked = [];
      addEventListener('dialback:success', (e) => (window as unknown as { __booked: unknown[] }).__booked.push((e as CustomEvent).detail));
    });
    await page.goto(stage.host.page('/schedule', { relayUrl: stage.system.relayUrl, data: { phone: '+380 44 111 22 33' } }));
    const w = widget(page);
    await w.launcher.waitFor();

    // Tab from the top of the page to the launcher, Enter.
    for (let i = 0; i < 5 && (await page.evaluate(() => document.activeElement?.tagName)) !== 'DIALBACK-WIDGET'; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.querySelector('dialback-widget')?.shadowRoot?.activeElement?.className)).toBe('launcher');
    await page.keyboard.press('Enter');
    await w.dialog.waitFor();

    // Closed: the opening in New York's time, and the form with "as soon as you open" chosen; focus
    // in the phone field once the picker is there.
    await w.dialog.getByText('We are closed now. We open tomorrow, 02:00 AM.').waitFor();
    const asap = w.dialog.getByRole('radio', { name: 'As soon as you open (tomorrow, 02:00 AM)' });
    await asap.waitFor();
    expect(await asap.isChecked()).toBe(true);
    await expect.poll(() => focused(page)).toBe('Your phone number');
    await page.keyboard.type('0501234567');

    // Tab to the choice, ArrowDown to "at a time I choose": days and times appear.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('As soon as you open (tomorrow, 02:00 AM)');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('At a time I choose');
    const days = w.dialog.getByRole('group', { name: 'Day' });
    await days.waitFor();
    expect(await days.getByRole('radio').evaluateAll((radios) => radios.map((r) => (r as HTMLInputElement).labels![0]!.textContent))).toEqual([
      'Wed, Jan 9',
      'Thu, Jan 10',
      'Fri, Jan 11',
      'Mon, Jan 14',
      'Tue, Jan 15',
    ]);
    await w.dialog.getByText('Times are in your time zone (America/New_York).').waitFor();
    expect(await axeViolations(page), 'the form with the picker').toEqual([]);

    // Tab to the days, ArrowRight to Thursday; Tab to the times, three half hours later; Tab, Enter.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Wed, Jan 9');
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toBe('Thu, Jan 10');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Time');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    expect(await w.dialog.getByLabel('Time', { exact: true }).evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]!.textContent)).toBe('03:30 AM');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Call me back');
    await page.keyboard.press('Enter');

    // Booked: said in the visitor's time, focus on it, announced; the relay holds it for 08:30 UTC.
    const booked = w.dialog.getByText('We will call +380 50 123 45 67 Thursday, 03:30 AM.');
    await booked.waitFor({ timeout: 10_000 });
    await expect.poll(() => focused(page)).toBe('We will call +380 50 123 45 67 Thursday, 03:30 AM.');
    expect(await w.liveRegion.textContent()).toBe('Call booked. We will call +380 50 123 45 67 Thursday, 03:30 AM.');
    expect(await w.dialog.locator('[aria-current=step]').textContent()).toBe('Call booked');
    const [event] = (await page.evaluate(() => (window as unknown as { __booked: Array<{ requestId: string; status: string; scheduledFor: string }> }).__booked)) as Array<{
      requestId: string;
      status: string;
      scheduledFor: string;
    }>;
    expect(event).toMatchObject({ status: 'scheduled' });
    expect(new Date(event!.scheduledFor).toISOString()).toBe('2030-01-10T08:30:00.000Z');
    expect(await progressAtRelay(event!.requestId)).toMatchObject({ outcome: 'scheduled' });
    expect(await axeViolations(page), 'booked').toEqual([]);

    // Tab to "Cancel the call", Enter: cancelled, said and announced; the relay agrees.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Cancel the call');
    await page.keyboard.press('Enter');
    await w.dialog.getByText('Call cancelled').waitFor({ timeout: 10_000 });
    await expect.poll(() => focused(page)).toBe('Call cancelled');
    expect(await w.liveRegion.textContent()).toBe('Call cancelled');
    expect(await progressAtRelay(event!.requestId)).toMatchObject({ outcome: 'cancelled' });
    expect(await axeViolations(page), 'cancelled').toEqual([]);
  } finally {
    await context.close();
  }
});

test('the phone system unreachable: the call is held (queued), said honestly, announced, axe-clean, and cancelled', async () => {
  // Monday 10:00 in Kyiv: open, so the call would be placed now, but the service is gone.
  const monday = new Date('2030-01-14T08:00:00Z');
  const system = await startSystem(
    {
      ALLOWED_ORIGINS: stage.host.url,
      WORKING_HOURS: 'Mon-Fri 09:00-18:00',
      TIMEZONE: officeZone,
      CALLTRACKING_BASE_URL: await deadUrl(),
      CALLTRACKING_AUTH_KEY: 'refused-auth-key-1234',
      CALLTRACKING_PROJECT_ID: '1',
      CALLBACK_CALLER: '380441112233',
    },
    { now: () => new Date(monday) },
  );
  const context = await stage.browser.newContext({ timezoneId: visitorZone });
  const page = await context.newPage();
  try {
    await page.clock.setFixedTime(monday);
    await page.goto(stage.host.page('/queued', { relayUrl: system.relayUrl, data: { phone: '+380 44 111 22 33' } }));
    const w = widget(page);
    await w.launcher.click();
    await w.phone.waitFor();
    await expect.poll(() => focused(page)).toBe('Your phone number');
    await page.keyboard.type('0501234568');
    await page.keyboard.press('Enter');

    await w.dialog.getByText('Our phone system is not answering right now. We keep your request and will call you as soon as it is back.').waitFor({ timeout: 10_000 });
    expect(await w.dialog.locator('[aria-current=step]').textContent()).toBe('We will call you as soon as we can');
    await expect.poll(() => focused(page)).toBe('We will call +380 50 123 45 68.');
    expect(await w.liveRegion.textContent()).toBe('We will call you as soon as we can. We will call +380 50 123 45 68.');
    expect(await axeViolations(page), 'queued').toEqual([]);

    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Cancel the call');
    await page.keyboard.press('Enter');
    await w.dialog.getByText('Call cancelled').waitFor({ timeout: 10_000 });
    expect(await w.liveRegion.textContent()).toBe('Call cancelled');
  } finally {
    await context.close();
    await system.close();
  }
});
