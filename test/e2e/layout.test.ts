// The dialog's layout: a bottom sheet across the full width under 480 px, a panel above the
// launcher on wider screens. Screenshots at 375×667 and 1280×800 go to dist/screenshots/ (generated,
// not committed, like the rest of dist/) for people to look at.
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { useStage } from '../support/stage.ts';
import { widget } from '../support/widget-page.ts';

const outputDir = join(import.meta.dirname, '../../dist/screenshots');
const stage = useStage();

beforeAll(() => {
  mkdirSync(outputDir, { recursive: true });
});

async function shoot(width: number, height: number) {
  const context = await stage.browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce', deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(stage.host.page(`/layout-${width}`, { relayUrl: stage.system.relayUrl, data: { phone: '+380 44 111 22 33' } }));
  const w = widget(page);
  await w.launcher.waitFor();
  const closedShot = join(outputDir, `widget-${width}x${height}-launcher.png`);
  await page.screenshot({ path: closedShot });
  await w.launcher.click();
  await w.dialog.waitFor();
  await w.phone.pressSequentially('050 123 45 67');
  const openShot = join(outputDir, `widget-${width}x${height}.png`);
  await page.screenshot({ path: openShot });
  const box = (await w.dialog.boundingBox())!;
  const launcherBox = (await w.launcher.boundingBox())!;
  return { context, page, box, launcherBox, shots: [closedShot, openShot] };
}

test('375×667: the dialog is a bottom sheet across the full width', async () => {
  const { context, box, shots } = await shoot(375, 667);
  try {
    expect(box.x).toBe(0);
    expect(box.width).toBe(375);
    expect(Math.round(box.y + box.height)).toBe(667);
    expect(box.height).toBeLessThanOrEqual(667);
    for (const shot of shots) expect(statSync(shot).size).toBeGreaterThan(5_000);
  } finally {
    await context.close();
  }
});

test('1280×800: a 380 px panel above the launcher, both in the bottom-right corner', async () => {
  const { context, box, launcherBox, shots } = await shoot(1280, 800);
  try {
    expect(box.width).toBe(380);
    expect(Math.round(box.x + box.width)).toBe(1280 - 20);
    expect(box.y + box.height).toBeLessThanOrEqual(launcherBox.y);
    expect(Math.round(launcherBox.x + launcherBox.width)).toBe(1280 - 20);
    expect(Math.round(launcherBox.y + launcherBox.height)).toBe(800 - 20);
    for (const shot of shots) expect(statSync(shot).size).toBeGreaterThan(5_000);
  } finally {
    await context.close();
  }
});

// The focus ring is an outline (3 px, 2 px out from the control's border): it reached 5 px beyond
// the field and touched the label above it and the hint below it (0 px between them). Measured on
// the ring's own box (the control's box grown by the outline's offset and width) against theirs.
test('the focus ring of the phone field and the country list keeps a gap from the label above and the text below', async () => {
  const context = await stage.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce', deviceScaleFactor: 1 });
  const page = await context.newPage();
  try {
    await page.goto(stage.host.page('/focus-ring', { relayUrl: stage.system.relayUrl }));
    const w = widget(page);
    await w.launcher.click();
    await w.phone.waitFor();
    const gaps = (id: string) =>
      page.evaluate((id) => {
        const root = document.querySelector('dialback-widget')!.shadowRoot!;
        const control = root.getElementById(id)!;
        const style = getComputedStyle(control);
        const reach = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
        const box = control.getBoundingClientRect();
        const above = root.querySelector(`label[for=${id}]`)!.getBoundingClientRect();
        // What follows the field: its hint, else the next field's label.
        const below = (control.nextElementSibling ?? control.parentElement!.nextElementSibling!.firstElementChild!).getBoundingClientRect();
        return {
          focused: root.activeElement === control && control.matches(':focus-visible'),
          reach,
          above: box.top - reach - above.bottom,
          below: below.top - (box.bottom + reach),
        };
      }, id);
    // The phone field takes focus as the dialog opens; Shift+Tab moves it to the country list.
    await expect.poll(() => gaps('db-phone').then((g) => g.focused)).toBe(true);
    const phone = await gaps('db-phone');
    await page.keyboard.press('Shift+Tab');
    const country = await gaps('db-country');
    expect(country.focused).toBe(true);
    for (const g of [phone, country]) {
      expect(g.reach).toBe(5);
      expect(g.above).toBeGreaterThanOrEqual(2);
      expect(g.below).toBeGreaterThanOrEqual(2);
    }
  } finally {
    await context.close();
  }
});
