// Off hours: the relay's WORKING_HOURS and TIMEZONE make /api/status say "closed" with the next
// opening; the widget says so before the visitor types, with the opening time in the visitor's own
// time zone (here New York, while the office keeps Kyiv hours), and offers to call then.
import { expect, test } from 'vitest';
import { hoursClosedNow } from '../support/office-hours.ts';
import { useStage } from '../support/stage.ts';
import { widget } from '../support/widget-page.ts';

const officeZone = 'Europe/Kyiv';
const visitorZone = 'America/New_York';

const stage = useStage((hostUrl) => ({ ALLOWED_ORIGINS: hostUrl, WORKING_HOURS: hoursClosedNow(officeZone), TIMEZONE: officeZone }));

test("closed now: the widget says when the office opens, in the visitor's local time, and offers to call then", async () => {
  const status = (await (await fetch(`${stage.system.relayUrl}/api/status`, { headers: { origin: stage.host.url } })).json()) as { openNow: boolean; nextOpenAt: string };
  expect(status.openNow).toBe(false);
  const opens = new Date(status.nextOpenAt);
  const localTime = new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit', timeZone: visitorZone }).format(opens);
  const officeTime = new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit', timeZone: officeZone }).format(opens);
  expect(localTime).not.toBe(officeTime);

  const context = await stage.browser.newContext({ timezoneId: visitorZone });
  const page = await context.newPage();
  try {
    await page.goto(stage.host.page('/closed', { relayUrl: stage.system.relayUrl, data: { phone: '+380 44 111 22 33' } }));
    const w = widget(page);
    await w.launcher.click();
    await w.dialog.waitFor();
    const notice = w.dialog.getByText(/^We are closed now\. We open /);
    await notice.waitFor();
    const text = (await notice.textContent())!;
    expect(text).toMatch(new RegExp(`^We are closed now\\. We open (today|tomorrow|\\w+day|\\d+ \\w+), ${localTime.replace(/\s/g, '\\s')}\\.$`));
    expect(text).not.toContain(officeTime);
    // The office number is there for the morning, and so is the form: "as soon as you open", at the
    // same local time, is the first choice, and the phone field has focus.
    expect(await w.dialog.getByRole('link', { name: 'Call us: +380 44 111 22 33' }).count()).toBe(1);
    expect(await w.liveRegion.textContent()).toBe(text);
    const asap = w.dialog.getByRole('radio', { name: `As soon as you open (${text.replace(/^We are closed now\. We open (.*)\.$/, '$1')})` });
    await asap.waitFor();
    expect(await asap.isChecked()).toBe(true);
    await expect.poll(() => page.evaluate(() => document.querySelector('dialback-widget')?.shadowRoot?.activeElement?.id)).toBe('db-phone');
  } finally {
    await context.close();
  }
});
