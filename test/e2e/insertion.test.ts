// Single-page apps and tag managers: the script inserted after the page has loaded, and inserted
// twice. One widget, one global, one dialog.
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { consoleOf, widget } from '../support/widget-page.ts';
import { useStage } from '../support/stage.ts';

const stage = useStage();

function insertScript(page: Page, lang = 'en') {
  return page.evaluate(
    ([src, l]) =>
      new Promise<void>((resolve, reject) => {
        const s = document.createElement('script');
        s.src = src!;
        s.async = true;
        s.dataset.lang = l!;
        s.dataset.country = 'UA';
        s.onload = () => resolve();
        s.onerror = () => reject(new Error('widget.js did not load'));
        document.body.appendChild(s);
      }),
    [`${stage.system.relayUrl}/widget.js`, lang],
  );
}

test('inserted after load, then again (an SPA re-rendering its layout): mounted once and working', async () => {
  const page = await stage.browser.newPage();
  try {
    const { errors } = consoleOf(page);
    await page.goto(stage.host.page('/spa', { relayUrl: stage.system.relayUrl, noScript: true }), { waitUntil: 'load' });
    await insertScript(page);
    const w = widget(page);
    await w.launcher.waitFor();
    // Keep a reference to the global the first copy installed.
    expect(await page.evaluate(() => typeof ((window as unknown as { first: unknown }).first = (window as unknown as { dialback: unknown }).dialback))).toBe('function');

    await insertScript(page, 'de');
    await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
    expect(await page.locator('dialback-widget').count()).toBe(1);
    // The first copy stays in charge: still English, still the same global.
    expect(await w.launcher.textContent()).toBe('Call me back');
    expect(await page.evaluate(() => (window as unknown as { first: unknown }).first === (window as unknown as { dialback: unknown }).dialback)).toBe(true);

    await page.evaluate(() => (window as unknown as { dialback(cmd: string): void }).dialback('open'));
    await w.dialog.waitFor();
    expect(await page.getByRole('dialog').count()).toBe(1);
    await w.phone.pressSequentially('0501234567');
    await w.submit.click();
    await w.dialog.getByText('We will call +380 50 123 45 67.').waitFor();
    await expect.poll(() => stage.system.sim.calls.length).toBe(1);
    expect(errors).toEqual([]);
  } finally {
    await page.close();
  }
});

test('a script tag in <head> (before <body> exists) waits for the body', async () => {
  const page = await stage.browser.newPage();
  try {
    const tag = `<script src="${stage.system.relayUrl}/widget.js" data-lang="pl"></script>`;
    await page.goto(stage.host.page('/head', { relayUrl: stage.system.relayUrl, noScript: true, head: tag }));
    const { launcher } = widget(page);
    await launcher.waitFor();
    expect(await launcher.textContent()).toBe('Oddzwońcie do mnie');
    // Mounted once <body> exists, after it, as a child of <html> (single-page apps replace <body>).
    expect(
      await page.evaluate(() => {
        const el = document.querySelector('dialback-widget');
        return [el?.parentElement?.tagName, el?.previousElementSibling?.tagName];
      }),
    ).toEqual(['HTML', 'BODY']);
  } finally {
    await page.close();
  }
});
