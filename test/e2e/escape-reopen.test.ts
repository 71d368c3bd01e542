// Esc, then the launcher at once: the launcher must open the dialog again. On busy pages (single-page
// apps) it sometimes closed it instead: the dialog is on screen a frame before focus moves into it
// (the move waits for the draw's frame), and an Esc in that frame went to the launcher, which still
// had focus and does not know Esc. The dialog stayed open, and the launcher's press, a toggle,
// closed it. Esc now closes an open dialog wherever focus is.
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { useStage } from '../support/stage.ts';
import { widget } from '../support/widget-page.ts';

const stage = useStage();

/** The dialog as the visitor meets it: on screen or not, where focus is, what the launcher says. */
const seen = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('dialback-widget')!.shadowRoot!;
    return {
      open: root.querySelector('.dialog')?.getAttribute('role') === 'dialog',
      focus: (root.activeElement as HTMLElement | null)?.id || root.activeElement?.className || null,
      expanded: root.querySelector('.launcher')!.getAttribute('aria-expanded'),
    };
  });

test('Esc on the dialog on screen before focus reached it closes it, and the launcher then opens it', async () => {
  const page = await stage.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    // The page's clock stands still unless moved: the frame between the draw and the focus is held open.
    const start = Date.now();
    await page.clock.install({ time: start });
    await page.goto(stage.host.page('/escape-early', { relayUrl: stage.system.relayUrl }));
    await page.clock.pauseAt(start + 60_000);
    const w = widget(page);
    // The clock moved on a second, then what the visitor sees.
    const settled = async () => {
      await page.clock.runFor(1000);
      return seen(page);
    };
    await page.clock.runFor(1000);
    // Opened and closed once: the chunks are in, the status known.
    await w.launcher.click();
    await expect.poll(settled).toEqual({ open: true, focus: 'db-phone', expanded: 'true' });
    await page.keyboard.press('Escape');
    expect(await seen(page)).toEqual({ open: false, focus: 'launcher', expanded: 'false' });

    await w.launcher.click();
    await expect.poll(() => seen(page).then((s) => s.expanded)).toBe('true');
    await page.clock.runFor(1); // the draw's task, not the frame after it
    expect(await seen(page)).toEqual({ open: true, focus: 'launcher', expanded: 'true' });
    await page.keyboard.press('Escape');
    expect(await seen(page)).toEqual({ open: false, focus: 'launcher', expanded: 'false' });
    await w.launcher.click();
    await expect.poll(settled).toEqual({ open: true, focus: 'db-phone', expanded: 'true' });
  } finally {
    await page.close();
  }
});

test('Esc as soon as the dialog is on screen, then the launcher at once, 30 times: every press opens it again', async () => {
  const page = await stage.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(stage.host.page('/escape-again', { relayUrl: stage.system.relayUrl }));
    const w = widget(page);
    // Settled: open with focus inside it, or closed with focus on the launcher (and the launcher
    // saying which: it says "open" from the press on, a task before the dialog is drawn).
    const settled = (s: Awaited<ReturnType<typeof seen>>) => (s.open ? s.focus === 'db-phone' && s.expanded === 'true' : s.focus === 'launcher' && s.expanded === 'false');
    const missed: number[] = [];
    for (let i = 0; i < 30; i++) {
      await w.launcher.click();
      // On screen: Esc at once, not waiting for focus to move in (a visitor does not wait for it).
      await w.dialog.waitFor();
      await page.keyboard.press('Escape');
      await w.launcher.click();
      await expect.poll(() => seen(page).then(settled)).toBe(true);
      if ((await seen(page)).open) await page.keyboard.press('Escape');
      else missed.push(i);
      await expect.poll(() => seen(page)).toEqual({ open: false, focus: 'launcher', expanded: 'false' });
    }
    expect(missed).toEqual([]);
  } finally {
    await page.close();
  }
});
