// Colour schemes only Chromium can emulate here: a page that allows both schemes (<meta
// name="color-scheme" content="light dark">) seen by a visitor who prefers dark, and Windows high
// contrast (forced-colors: active). The typed number stays readable; the launcher, the submit button
// and the dialog keep an edge in the system's colours.
import { expect, test } from 'vitest';
import type { BrowserContextOptions } from 'playwright-core';
import { inputContrast } from '../support/engines/host-page-moves.ts';
import { useStage } from '../support/stage.ts';
import { widget } from '../support/widget-page.ts';

const stage = useStage();
let pageCount = 0;

async function openDialog(options: BrowserContextOptions, head = '') {
  const context = await stage.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce', ...options });
  const page = await context.newPage();
  await page.goto(stage.host.page(`/scheme-${++pageCount}`, { relayUrl: stage.system.relayUrl, head }));
  const w = widget(page);
  await w.launcher.click();
  await w.phone.pressSequentially('050 123 45 67');
  return { context, page, w };
}

test('a page in "light dark" and a visitor who prefers dark: the typed number and the country keep their contrast', async () => {
  const { context, page } = await openDialog({ colorScheme: 'dark' }, '<meta name="color-scheme" content="light dark">');
  try {
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
    const contrast = await page.evaluate(inputContrast);
    expect(contrast.phone, JSON.stringify(contrast)).toBeGreaterThanOrEqual(4.5);
    expect(contrast.select, JSON.stringify(contrast)).toBeGreaterThanOrEqual(4.5);
  } finally {
    await context.close();
  }
});

test('forced colours (Windows high contrast): the launcher, the submit button and the dialog each keep a visible edge', async () => {
  const { context, page } = await openDialog({ forcedColors: 'active' });
  try {
    expect(await page.evaluate(() => matchMedia('(forced-colors: active)').matches)).toBe(true);
    // Unfocused (focus on the page), so no focus ring counts as the edge.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const edges = await page.evaluate(() => {
      const root = document.querySelector('dialback-widget')!.shadowRoot!;
      // An edge: a border or an outline at least 1 px wide, drawn, in a colour that is not transparent.
      const edge = (selector: string) => {
        const style = getComputedStyle(root.querySelector(selector)!);
        const drawn = (width: string, kind: string, colour: string) => parseFloat(width) >= 1 && kind !== 'none' && !/^rgba\(.*, 0\)$|transparent/.test(colour);
        return drawn(style.borderTopWidth, style.borderTopStyle, style.borderTopColor) || drawn(style.outlineWidth, style.outlineStyle, style.outlineColor)
          ? 'edge'
          : `none (border ${style.borderTopWidth} ${style.borderTopStyle} ${style.borderTopColor}, outline ${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor})`;
      };
      return { launcher: edge('.launcher'), submit: edge('form .primary'), dialog: edge('[role=dialog]') };
    });
    expect(edges).toEqual({ launcher: 'edge', submit: 'edge', dialog: 'edge' });
  } finally {
    await context.close();
  }
});
