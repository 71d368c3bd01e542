// Never break the host, and never leave the visitor without a way to reach the office: when the
// relay cannot be reached the visitor reads a clear sentence (the dialog's, when it could load) or
// gets the office's tel: link above the launcher (when not even the dialog could: the entry has the
// number, which needs no words in twelve languages); the page sees no uncaught error and one
// "[dialback]" line at most.
import { expect, test } from 'vitest';
import { deadUrl } from '../support/listen.ts';
import { consoleOf, widget } from '../support/widget-page.ts';
import { startSystem } from '../support/system.ts';
import { useStage } from '../support/stage.ts';

const stage = useStage();

test('the relay API is unreachable: a sentence above the button and the office number', async () => {
  const page = await stage.browser.newPage();
  try {
    const { errors } = consoleOf(page);
    // The script and its chunks come from the relay; its API address (data-relay) answers nothing.
    await page.goto(stage.host.page('/api-down', { relayUrl: stage.system.relayUrl, data: { relay: await deadUrl(), phone: '+380 44 111 22 33' } }));
    const w = widget(page);
    await w.launcher.click();
    await w.dialog.waitFor();
    await w.phone.pressSequentially('050 123 45 67');
    await w.submit.click();
    const alert = w.dialog.locator('#db-form-error');
    await alert.getByText('We cannot reach the callback service. Please check your connection.').waitFor();
    expect(await alert.getByRole('link', { name: 'Call us: +380 44 111 22 33' }).getAttribute('href')).toBe('tel:+380441112233');
    expect(await w.liveRegion.textContent()).toBe('We cannot reach the callback service. Please check your connection.');
    // The visitor can try again; nothing was thrown into the page.
    expect(await w.submit.isEnabled()).toBe(true);
    expect(errors).toEqual([]);
  } finally {
    await page.close();
  }
});

test('the relay went away after the page loaded: the office number above the launcher, a tel: link', async () => {
  const doomed = await startSystem({ ALLOWED_ORIGINS: stage.host.url });
  const page = await stage.browser.newPage();
  try {
    const { errors, lines } = consoleOf(page);
    await page.goto(stage.host.page('/relay-gone', { relayUrl: doomed.relayUrl, data: { phone: '+380 44 111 22 33' } }));
    const w = widget(page);
    await w.launcher.waitFor();
    await doomed.close();

    await w.launcher.click();
    const notice = page.locator('dialback-widget').getByRole('alert');
    await notice.getByRole('link', { name: '+380 44 111 22 33' }).waitFor();
    expect(await notice.getByRole('link').getAttribute('href')).toBe('tel:+380441112233');
    // Above the launcher, not over it.
    const [card, launcher] = [(await notice.boundingBox())!, (await w.launcher.boundingBox())!];
    expect(card.y + card.height).toBeLessThanOrEqual(launcher.y);
    // Clicking again retries (and fails again) without piling up errors.
    await w.launcher.click();
    await page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
    expect(errors).toEqual([]);
    expect(lines.filter((l) => l.includes('[dialback]'))).toHaveLength(1);
    // The launcher is still there and usable.
    expect(await w.launcher.isVisible()).toBe(true);
  } finally {
    await page.close();
  }
});

test('the relay went away and the site gave no number: no empty card, and the next press tries again', async () => {
  const doomed = await startSystem({ ALLOWED_ORIGINS: stage.host.url });
  const page = await stage.browser.newPage();
  try {
    const { errors, lines } = consoleOf(page);
    await page.goto(stage.host.page('/relay-gone-no-phone', { relayUrl: doomed.relayUrl }));
    const w = widget(page);
    await w.launcher.waitFor();
    await doomed.close();
    await w.launcher.click();
    await expect.poll(() => lines.filter((l) => l.includes('[dialback]')).length).toBe(1);
    expect(await page.locator('dialback-widget').getByRole('alert').count()).toBe(0);
    const asked: string[] = [];
    page.on('request', (r) => asked.push(r.url()));
    await w.launcher.click();
    await expect.poll(() => asked.some((url) => url.includes('/chunks/mount-'))).toBe(true);
    expect(errors).toEqual([]);
  } finally {
    await page.close();
  }
});
