// The page's side of the contract: window.dialback queued before the script arrives, data-dialback-open
// on elements added later, DOM events and dataLayer entries, and never the phone number in any of
// them.
import { expect, test } from 'vitest';
import { widget } from '../support/widget-page.ts';
import { useStage } from '../support/stage.ts';

const stage = useStage();

// What a site writes in its <head>: the queue stub, a handler registered before the script loads,
// Google Tag Manager's dataLayer, and a listener for the DOM events.
const head = `<script>
window.dialback = window.dialback || function () { (dialback.q = dialback.q || []).push(arguments) };
window.seen = [];
dialback('on', 'success', function (detail) { seen.push(['handler:success', detail]) });
dialback('on', 'open', function (detail) { seen.push(['handler:open', detail]) });
window.dataLayer = [];
['open', 'close', 'submit', 'success', 'error'].forEach(function (name) {
  window.addEventListener('dialback:' + name, function (e) { seen.push(['event:' + name, e.detail]) });
});
</script>`;

test('queued commands, data-dialback-open on late elements, events and dataLayer, no phone number anywhere', async () => {
  const page = await stage.browser.newPage();
  try {
    await page.goto(stage.host.page('/events', { relayUrl: stage.system.relayUrl, head }));
    const w = widget(page);
    await w.launcher.waitFor();

    // A button the page renders later (an SPA route), opening the widget by attribute.
    await page.evaluate(() => {
      const b = document.createElement('button');
      b.id = 'late';
      b.textContent = 'Ask for a call';
      b.setAttribute('data-dialback-open', '');
      document.body.appendChild(b);
    });
    await page.locator('#late').click();
    await w.dialog.waitFor();
    await w.phone.pressSequentially('050 123 45 67');
    await w.submit.click();
    await w.dialog.getByText('We will call +380 50 123 45 67.').waitFor();

    await page.evaluate(() => (window as unknown as { dialback(c: string): void }).dialback('close'));
    await w.dialog.waitFor({ state: 'detached' });
    await page.evaluate(() => (window as unknown as { dialback(c: string): void }).dialback('open'));
    await w.dialog.waitFor();

    const seen = (await page.evaluate(() => (window as unknown as { seen: Array<[string, Record<string, unknown>]> }).seen)) as Array<[string, Record<string, unknown>]>;
    const dataLayer = (await page.evaluate(() => (window as unknown as { dataLayer: Array<Record<string, unknown>> }).dataLayer)) as Array<Record<string, unknown>>;
    expect(seen.map(([name]) => name)).toEqual(['event:open', 'handler:open', 'event:submit', 'event:success', 'handler:success', 'event:close', 'event:open', 'handler:open']);
    const success = seen.find(([name]) => name === 'event:success')![1];
    expect(success).toEqual({ requestId: expect.any(String), status: 'accepted', estimateSeconds: expect.any(Number) });
    expect(seen.find(([name]) => name === 'event:submit')![1]).toEqual({ country: 'UA', lang: 'en' });
    expect(dataLayer.map((e) => e.event)).toEqual(['dialback_open', 'dialback_submit', 'dialback_success', 'dialback_close', 'dialback_open']);
    expect(dataLayer[2]).toMatchObject({ requestId: success.requestId });

    // The number in no form: digits, grouped, masked.
    const everything = JSON.stringify([seen, dataLayer]);
    for (const fragment of ['0501234567', '501234567', '123 45 67', '*** **', '380501']) expect(everything).not.toContain(fragment);
  } finally {
    await page.close();
  }
});

test('an error event carries the code only', async () => {
  const page = await stage.browser.newPage();
  try {
    await page.goto(stage.host.page('/events-error', { relayUrl: stage.system.relayUrl, head, data: { country: 'UA' } }));
    const w = widget(page);
    await w.launcher.click();
    await w.dialog.waitFor();
    // A number the relay refuses: a premium-rate line.
    await w.phone.pressSequentially('+44 909 879 0000');
    await w.submit.click();
    await w.dialog.locator('#db-phone-error').waitFor();
    const seen = (await page.evaluate(() => (window as unknown as { seen: Array<[string, unknown]> }).seen)) as Array<[string, Record<string, unknown>]>;
    const error = seen.find(([name]) => name === 'event:error');
    expect(error).toBeDefined();
    expect(Object.keys(error![1])).toEqual(['code']);
    expect(JSON.stringify(seen)).not.toMatch(/909|8790000/);
  } finally {
    await page.close();
  }
});
