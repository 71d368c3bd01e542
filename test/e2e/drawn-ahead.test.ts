// The dialog is drawn ahead on the visitor's first intent (hover), unseen, so that the click only
// shows it (the page-load bench's opening). Unseen, it must be nothing to anyone: no dialog role,
// out of the accessibility tree, nothing in it focusable, no 'open' told to the page, nothing said
// in the live region, and the page's own controls under it (or under the widget's frame, which the
// unseen dialog enlarges) still take the pointer. Opening and closing work as before, again and again.
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { useStage } from '../support/stage.ts';
import { consoleOf, widget } from '../support/widget-page.ts';

const stage = useStage();

// Two page buttons in the widget's corner: one under where the dialog is drawn, one beside the
// launcher, inside the widget's frame once the dialog is in it. Each counts its clicks.
const body = `
<button type="button" id="under-dialog" style="position:fixed;right:200px;bottom:200px">Under the dialog</button>
<button type="button" id="beside-launcher" style="position:fixed;right:300px;bottom:30px">Beside the launcher</button>
<script>
  window.heard = { open: 0, close: 0, clicks: [] };
  addEventListener('dialback:open', () => heard.open++);
  addEventListener('dialback:close', () => heard.close++);
  for (const b of document.querySelectorAll('#under-dialog,#beside-launcher')) b.addEventListener('click', () => heard.clicks.push(b.id));
</script>`;

type Heard = { open: number; close: number; clicks: string[] };
const heard = (page: Page) => page.evaluate(() => (window as unknown as { heard: Heard }).heard);

/** What the widget's shadow root holds of the dialog, seen or not. */
const drawn = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('dialback-widget')!.shadowRoot!;
    const dialog = root.querySelector<HTMLElement>('.dialog');
    return {
      there: !!dialog,
      role: dialog?.getAttribute('role') ?? null,
      visible: dialog?.checkVisibility({ visibilityProperty: true }) ?? false,
      focusInside: !!dialog?.contains(root.activeElement),
      live: root.querySelector('[role=status]')?.textContent ?? '',
    };
  });

async function clickPageButtons(page: Page) {
  for (const id of ['under-dialog', 'beside-launcher']) {
    const box = (await page.locator(`#${id}`).boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  }
}

test('a hover draws the dialog unseen: no dialog to anyone, the page under it still clickable; the click shows it', async () => {
  const page = await stage.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    const { errors } = consoleOf(page);
    // The host's hostile stylesheet moves every button: here the page's buttons must stay where placed.
    await page.route('**/hostile.css', (route) => route.fulfill({ status: 200, contentType: 'text/css', body: '' }));
    await page.goto(stage.host.page('/drawn-ahead', { relayUrl: stage.system.relayUrl, body }));
    const w = widget(page);
    await w.launcher.hover();
    await expect.poll(() => drawn(page).then((d) => d.there)).toBe(true);
    // Laid out where it will show, above the launcher and over both page buttons' corner.
    const box = await page.evaluate(() => {
      const r = document.querySelector('dialback-widget')!.shadowRoot!.querySelector('.dialog')!.getBoundingClientRect();
      return { left: r.left, top: r.top, bottom: r.bottom };
    });
    const under = (await page.locator('#under-dialog').boundingBox())!;
    expect(under.x).toBeGreaterThan(box.left);
    expect(under.y).toBeGreaterThan(box.top);
    expect(under.y + under.height).toBeLessThan(box.bottom);

    expect(await drawn(page)).toEqual({ there: true, role: null, visible: false, focusInside: false, live: '' });
    expect(await w.dialog.count()).toBe(0);
    expect(await w.launcher.getAttribute('aria-expanded')).toBe('false');
    // Out of the accessibility tree (role queries skip what assistive technology cannot reach).
    expect(await page.getByRole('textbox', { name: 'Your phone number' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Close', exact: true }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Request a call back' }).count()).toBe(0);
    // Tab from the launcher leaves the widget: nothing in the unseen dialog takes focus.
    await w.launcher.focus();
    await page.keyboard.press('Tab');
    expect((await drawn(page)).focusInside).toBe(false);
    await clickPageButtons(page);
    expect(await heard(page)).toEqual({ open: 0, close: 0, clicks: ['under-dialog', 'beside-launcher'] });

    // The click shows it: the role, focus in the phone input, 'open' told once.
    await w.launcher.click();
    await w.dialog.waitFor();
    await expect.poll(() => w.phone.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    expect(await drawn(page)).toMatchObject({ role: 'dialog', visible: true, focusInside: true });
    expect((await heard(page)).open).toBe(1);

    // Esc closes it: unseen again (kept drawn for the next open), focus back on the launcher, the page clickable.
    await page.keyboard.press('Escape');
    await w.dialog.waitFor({ state: 'detached' });
    expect(await drawn(page)).toMatchObject({ there: true, role: null, visible: false, focusInside: false });
    expect(await w.launcher.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    await expect.poll(() => heard(page).then((h) => h.close)).toBe(1);
    await clickPageButtons(page);
    expect((await heard(page)).clicks).toEqual(['under-dialog', 'beside-launcher', 'under-dialog', 'beside-launcher']);

    // And it opens again from the keyboard, focus inside again.
    await w.launcher.focus();
    await page.keyboard.press('Enter');
    await w.dialog.waitFor();
    await expect.poll(() => w.phone.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    expect(await heard(page)).toMatchObject({ open: 2, close: 1 });
    expect(errors).toEqual([]);
  } finally {
    await page.close();
  }
});
