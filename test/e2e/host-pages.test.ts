// Host pages that change under the widget, in three engines: single-page apps that replace or clear
// <body> (a Turbo-style swap that runs the script tag again, body.innerHTML, a hydration that drops
// what it did not render), CSS zoom on <html>, a tiny viewport (1280×800 at 400 % browser zoom),
// and a dark colour scheme the page forces. The widget stays, once, with its state; the landing
// page's attribution still reaches the call; the dialog fits the viewport; the typed number stays
// readable.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSystem, type System } from '../support/system.ts';
import { startHostSite, type HostSite, type PageOptions } from '../support/host-site.ts';
import { errorRecorder, snapshot, until, type WidgetSnapshot } from '../support/engines/in-page.ts';
import { engineNames } from '../support/engines/launch.ts';
import { accepted, click, opened, UNLIMITED } from '../support/engines/moves.ts';
import { agents, useEngine } from '../support/engines/use-engine.ts';
import { inputContrast, spaMoves, widgetCount, type SpaMove } from '../support/engines/host-page-moves.ts';

const desktop = { width: 1280, height: 800 };
const closeDialog = () => (document.querySelector('dialback-widget')!.shadowRoot!.querySelector('.close') as HTMLElement).click();

let host: HostSite;
let system: System;
let pageCount = 0;

beforeAll(async () => {
  host = await startHostSite();
  system = await startSystem({ ALLOWED_ORIGINS: host.url, ...UNLIMITED }, { simulator: { agents: agents(4), timing: { agentAnswerMs: 200, visitorRingMs: 200, talkMs: 200 } } });
});
afterAll(async () => {
  await system?.close();
  await host?.close();
});

function hostPage(options: Omit<PageOptions, 'relayUrl'> = {}, query = ''): string {
  return host.page(`/host-${++pageCount}`, { relayUrl: system.relayUrl, ...options, head: errorRecorder + (options.head ?? '') }) + query;
}

/** The dialog and the launcher lie inside the viewport (the part not taken by the page's scrollbars). */
function inViewport(s: WidgetSnapshot, ...boxes: Array<WidgetSnapshot['dialog']>) {
  for (const box of boxes) {
    expect(box).not.toBeNull();
    const { x, y, width, height } = box!;
    expect({ x, y, right: x + width, bottom: y + height }).toEqual({
      x: expect.toSatisfy((v: number) => v >= -0.5),
      y: expect.toSatisfy((v: number) => v >= -0.5),
      right: expect.toSatisfy((v: number) => v <= s.client[0] + 0.5),
      bottom: expect.toSatisfy((v: number) => v <= s.client[1] + 0.5),
    });
  }
}

for (const name of engineNames) {
  describe(name, () => {
    const { withPage } = useEngine(name);

    for (const [index, move] of (Object.keys(spaMoves) as SpaMove[]).entries()) {
      // A number of its own per scenario: the browser remembers a submitted one and offers it in a
      // drop-down while the same is typed again, and Escape would then close the drop-down first.
      const digits = `50 123 45 7${index}`;
      test(
        `an SPA ${move}: the widget stays, once, with the open dialog and the typed number; a new data-dialback-open button and dialback('open') work; the landing page's utm reach the call`,
        () =>
          withPage(hostPage({}, '?utm_source=landing&utm_medium=cpc&utm_campaign=spa'), desktop, async (page) => {
            let s = await until(page, 'the launcher', (x) => x.launcher);
            await click(page, s.launcher, 'the launcher');
            s = await until(page, 'the form', opened);
            await click(page, s.phone, 'the phone field');
            await page.type(`0${digits}`);

            // The app navigates (the URL loses its utm) and changes <body> as it does.
            await page.run(spaMoves[move]);
            s = await until(page, 'the widget back on the page', (x) => x.open);
            expect(await page.run(widgetCount)).toBe(1);
            expect(await page.run(() => location.search)).toBe('');
            expect(await page.run(() => (document.querySelector('dialback-widget')!.shadowRoot!.querySelector('#db-phone') as HTMLInputElement).value)).toBe(`0${digits}`);

            // Closed (by its close button: Escape would first close the browser's drop-down of numbers
            // typed before, where it offers one), then opened by the new page's button and by the API.
            await page.run(closeDialog);
            s = await until(page, 'the dialog to close', (x) => !x.open);
            await page.run(() => (document.querySelector('[data-dialback-open]') as HTMLElement).click());
            s = await until(page, 'the dialog opened by the new button', opened);
            await page.run(closeDialog);
            s = await until(page, 'the dialog to close', (x) => !x.open);
            await page.run(() => (window as unknown as { dialback(c: string): void }).dialback('open'));
            s = await until(page, "the dialog opened by dialback('open')", opened);
            expect(await page.run(widgetCount)).toBe(1);

            const before = system.sim.calls.length;
            await click(page, s.submit, 'the submit button');
            await until(page, 'the accepted view', accepted(digits));
            await expect.poll(() => system.sim.calls.length, { timeout: 10_000 }).toBe(before + 1);
            const call = system.sim.calls.at(-1)!;
            expect({ source: call.utmSource, medium: call.utmMedium, campaign: call.utmCampaign }).toEqual({ source: 'landing', medium: 'cpc', campaign: 'spa' });
            expect((await page.run(snapshot)).errors).toEqual([]);
          }),
        40_000,
      );
    }

    for (const zoom of [2, 4]) {
      test(`CSS zoom ${zoom} on <html>: the dialog opens inside the viewport, the launcher too`, () =>
        withPage(hostPage({ head: `<style>html{zoom:${zoom}}</style>` }), desktop, async (page) => {
          await until(page, 'the launcher', (x) => x.launcher);
          await page.run(() => (window as unknown as { dialback(c: string): void }).dialback('open'));
          const s = await until(page, 'the form with focus inside', (x) => opened(x) && x.activeInDialog);
          inViewport(s, s.dialog, s.launcher);
        }));
    }

    test('320×200 (1280×800 at 400 % zoom): the dialog and the focused phone field lie inside the viewport', () =>
      withPage(hostPage(), { width: 320, height: 200 }, async (page) => {
        const closed = await until(page, 'the launcher', (x) => x.launcher);
        await click(page, closed.launcher, 'the launcher');
        const s = await until(page, 'the focused phone field', (x) => opened(x) && x.active === 'db-phone');
        inViewport(s, s.dialog, s.phone);
      }));

    test('a page that forces a dark colour scheme (<meta name="color-scheme" content="dark">): the typed number stays readable', () =>
      withPage(hostPage({ head: '<meta name="color-scheme" content="dark">' }), desktop, async (page) => {
        await until(page, 'the launcher', (x) => x.launcher);
        await page.run(() => (window as unknown as { dialback(c: string): void }).dialback('open'));
        await until(page, 'the form', opened);
        await page.type('050 123 45 67');
        const contrast = await page.run(inputContrast);
        expect(contrast.phone, JSON.stringify(contrast)).toBeGreaterThanOrEqual(4.5);
        expect(contrast.select, JSON.stringify(contrast)).toBeGreaterThanOrEqual(4.5);
      }));
  });
}
