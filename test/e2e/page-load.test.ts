// What the script tag costs at page load, asserted on the requests the page really sent: nothing but
// widget.js until the visitor shows intent; then the lazy chunks, fetched from the relay's origin
// (relative to the script's URL), never from the host page's origin.
import { expect, test } from 'vitest';
import type { Request } from 'playwright-core';
import { consoleOf, widget } from '../support/widget-page.ts';
import { useStage } from '../support/stage.ts';

const stage = useStage();

test('page load requests only widget.js from the relay; intent fetches the UI from the relay origin', async () => {
  const page = await stage.browser.newPage();
  try {
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    const { errors, lines } = consoleOf(page);
    await page.goto(stage.host.page('/', { relayUrl: stage.system.relayUrl }), { waitUntil: 'load' });
    const w = widget(page);
    await w.launcher.waitFor();
    await page.waitForLoadState('networkidle');

    const relayRequests = () => requests.filter((r) => r.url().startsWith(stage.system.relayUrl)).map((r) => new URL(r.url()).pathname);
    expect(relayRequests()).toEqual(['/widget.js']);
    // The host page's own requests: the page and its stylesheet, nothing added by the widget.
    expect(requests.filter((r) => r.url().startsWith(stage.host.url)).map((r) => new URL(r.url()).pathname)).toEqual(['/', '/hostile.css']);
    expect(requests).toHaveLength(3);

    // First intent: hovering the launcher fetches the UI before any click.
    await w.launcher.hover();
    await expect.poll(() => relayRequests().filter((p) => p.startsWith('/chunks/mount-')).length).toBe(1);
    await expect.poll(() => relayRequests()).toContain('/api/status');
    const chunkRequests = requests.filter((r) => /\/chunks\//.test(r.url()));
    // Exactly the UI (Preact inside it) and the visitor's language, once each (the status request
    // above leaves only once both have loaded). The attribution reader comes with the request (the
    // submit's chunk): the opening does not wait for it.
    const chunkNames = chunkRequests.map((r) => new URL(r.url()).pathname.replace(/^\/chunks\/(\w+)[.-].*$/, '$1'));
    expect(chunkNames.sort()).toEqual(['en', 'mount']);
    // Side by side: the entry asks for the language with the UI, in the same task, so the catalog's
    // request starts before the UI chunk's answer has even ended (asked by the UI chunk, it started
    // only once that chunk had arrived and run).
    const [mountTiming, enTiming] = await page.evaluate(() =>
      ['/chunks/mount-', '/chunks/en-'].map((part) => {
        const entry = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) => e.name.includes(part))!;
        return { start: entry.startTime, end: entry.responseEnd };
      }),
    );
    expect(enTiming!.start).toBeLessThan(mountTiming!.end);
    for (const r of chunkRequests) expect(r.url().startsWith(`${stage.system.relayUrl}/chunks/`), r.url()).toBe(true);
    expect(chunkRequests.map((r) => r.url())).toContainEqual(expect.stringMatching(/\/chunks\/en-[\w-]+\.js$/));
    expect(chunkRequests.map((r) => r.url())).not.toContainEqual(expect.stringMatching(/\/chunks\/(uk|ru|pl|de)-/));
    // Optional parts stay unloaded: no consent text, no Turnstile, no call yet.
    expect(chunkRequests.map((r) => r.url())).not.toContainEqual(expect.stringMatching(/ConsentField|Turnstile|progress|opening|send|attribution/));

    await w.launcher.click();
    await w.dialog.waitFor();
    expect(errors).toEqual([]);
    expect(lines.filter((l) => l.includes('[dialback]'))).toEqual([]);
  } finally {
    await page.close();
  }
});

test("data-invite without pages:N: idle fetches the invitation's triggers alone and touches no storage; its memory, the consent code, the bubble and the language's catalog come when one fires", async () => {
  const page = await stage.browser.newPage();
  try {
    const chunks: string[] = [];
    page.on('request', (r) => /\/chunks\//.test(r.url()) && chunks.push(new URL(r.url()).pathname.replace(/^\/chunks\/([a-z]+(?:-[a-z]{2}(?=-))?)[.-].*$/, '$1')));
    await page.goto(stage.host.page('/invite-idle', { relayUrl: stage.system.relayUrl, data: { invite: 'exit' } }));
    await widget(page).launcher.waitFor();
    await expect.poll(() => chunks).toEqual(['invite']);
    await page.waitForLoadState('networkidle');
    expect(chunks).toEqual(['invite']);
    expect(await page.evaluate(() => [...Object.keys(sessionStorage), ...Object.keys(localStorage)])).toEqual([]);

    // The pointer leaves through the top: the rest arrives, and the bubble shows.
    await page.evaluate(() => document.documentElement.dispatchEvent(new MouseEvent('mouseout', { bubbles: true, clientY: -1, relatedTarget: null })));
    await page.getByRole('button', { name: 'Questions? We can call you back right now.' }).waitFor();
    expect(chunks.sort()).toEqual(['consent', 'en', 'invite', 'show']);
    expect(await page.evaluate(() => sessionStorage.getItem('dialback:invited'))).toBe('1');
  } finally {
    await page.close();
  }
});

test('focus (keyboard intent) also prefetches, and the widget works from a page on another port', async () => {
  const page = await stage.browser.newPage();
  try {
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(stage.host.page('/keyboard', { relayUrl: stage.system.relayUrl }));
    const w = widget(page);
    await w.launcher.waitFor();
    await page.locator('#host-button').focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => requests.some((u) => u.startsWith(`${stage.system.relayUrl}/chunks/mount-`))).toBe(true);
    await page.keyboard.press('Enter');
    await w.dialog.waitFor();
    expect(new URL(stage.system.relayUrl).origin).not.toBe(new URL(stage.host.url).origin);
  } finally {
    await page.close();
  }
});

test("the dialog's first frame asks the page for no font size of its own but the title's, and only then for the status", async () => {
  const page = await stage.browser.newPage();
  try {
    // When the first frame after the page heard 'open' began (its frame callbacks run first).
    await page.addInitScript(() => {
      addEventListener('dialback:open', () => requestAnimationFrame(() => ((window as { framedAt?: number }).framedAt ??= performance.now())), { once: true });
    });
    await page.goto(stage.host.page('/first-frame', { relayUrl: stage.system.relayUrl }), { waitUntil: 'load' });
    const w = widget(page);
    await w.launcher.waitFor();
    await page.evaluate(() => (window as { dialback?: (command: string) => void }).dialback!('open'));
    await w.dialog.waitFor();
    // Every size and weight the dialog's text is drawn in, hidden placeholders included (they are
    // laid out too): each one a page has not used yet cost that frame a font lookup and metrics
    // (~4 ms of layout at 4× CPU on Linux; the close button's "×" at 28 px, ~10 ms).
    const fonts = await page.evaluate(() => {
      const found = new Set<string>();
      for (const el of document.querySelector('dialback-widget')!.shadowRoot!.querySelectorAll('[role=dialog] *')) {
        const drawsText = el.matches('input, select') || [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
        if (drawsText && el.checkVisibility()) found.add(`${getComputedStyle(el).fontSize} ${getComputedStyle(el).fontWeight}`);
      }
      return [...found].sort();
    });
    expect(fonts).toEqual(['16px 400', '16px 600', '20px 700']);
    // The status request started after that frame, not between the open and it.
    await expect.poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/api/status')))).toBe(true);
    const [framedAt, asked] = await page.evaluate(() => [
      (window as { framedAt?: number }).framedAt,
      performance.getEntriesByType('resource').find((e) => e.name.endsWith('/api/status'))!.startTime,
    ]);
    expect(framedAt).toBeDefined();
    expect(asked).toBeGreaterThan(framedAt!);
  } finally {
    await page.close();
  }
});
