// Style isolation: the widget looks the same under demo/hostile.css (`* { all: revert }`, !important
// everywhere, huge fonts) as on a plain page, and the host page looks the same with the widget as
// without it.
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { widget } from '../support/widget-page.ts';
import { useStage } from '../support/stage.ts';

const stage = useStage();

const properties = [
  'font-family',
  'font-size',
  'font-weight',
  'line-height',
  'letter-spacing',
  'text-transform',
  'color',
  'background-color',
  'border-top-width',
  'border-top-style',
  'padding-top',
  'margin-top',
  'width',
  'height',
  'position',
  'display',
  'visibility',
  'opacity',
  'transform',
  'outline-style',
];

/** Computed styles of the widget's parts, read inside its shadow root. */
function partsStyles(page: Page) {
  return page.evaluate((props) => {
    const root = document.querySelector('dialback-widget')!.shadowRoot!;
    const parts: Record<string, Element | null> = {
      launcher: root.querySelector('.launcher'),
      'launcher icon': root.querySelector('.launcher svg'),
      'launcher label': root.querySelector('.launcher .label'),
      dialog: root.querySelector('[role=dialog]'),
      title: root.querySelector('#db-title'),
      'phone input': root.querySelector('#db-phone'),
      'country select': root.querySelector('#db-country'),
      'phone label': root.querySelector('label[for=db-phone]'),
      submit: root.querySelector('button[type=submit]'),
    };
    return Object.fromEntries(
      Object.entries(parts).map(([name, el]) => {
        if (!el) return [name, null];
        const style = getComputedStyle(el);
        return [name, Object.fromEntries(props.map((p) => [p, style.getPropertyValue(p)]))];
      }),
    );
  }, properties);
}

async function openOn(path: string, hostile: boolean): Promise<Page> {
  const page = await stage.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(stage.host.page(path, { relayUrl: stage.system.relayUrl, head: hostile ? '' : '<style>/* plain page */</style>' }));
  if (!hostile) await page.evaluate(() => document.querySelector('link[href="/hostile.css"]')?.remove());
  const w = widget(page);
  await w.launcher.click();
  await w.dialog.waitFor();
  // Let the dialog's entrance finish: styles are compared at rest.
  await page.evaluate(() =>
    Promise.all(
      document
        .querySelector('dialback-widget')!
        .shadowRoot!.getAnimations()
        .map((a) => a.finished),
    ),
  );
  return page;
}

test('computed styles of every widget part are the same under the hostile stylesheet as on a plain page', async () => {
  const plain = await openOn('/plain', false);
  const hostile = await openOn('/hostile', true);
  try {
    // The hostile sheet really is active on the host page.
    expect(await hostile.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/Comic Sans/);
    expect(await plain.evaluate(() => getComputedStyle(document.body).fontFamily)).not.toMatch(/Comic Sans/);

    const inPlain = await partsStyles(plain);
    const inHostile = await partsStyles(hostile);
    expect(Object.values(inHostile).every(Boolean)).toBe(true);
    expect(inHostile).toEqual(inPlain);

    // And they are the widget's own values, not the browser's defaults or the host's.
    const launcher = inHostile.launcher!;
    expect(launcher.position).toBe('static'); // the frame around it is fixed
    expect(launcher['font-size']).toBe('16px');
    expect(launcher['font-family']).not.toMatch(/Comic Sans|Papyrus|fantasy/);
    expect(launcher['text-transform']).toBe('none');
    expect(launcher['letter-spacing']).toBe('normal');
    expect(launcher['background-color']).toBe('rgb(11, 87, 208)');
    expect(launcher.color).toBe('lch(100 0 0)'); // white, chosen in CSS for contrast with the accent
    expect(inHostile['launcher icon']!.width).toBe('22px');
    expect(inHostile['phone input']!['font-size']).toBe('16px');
    expect(inHostile['phone input']!['border-top-width']).toBe('2px');
    expect(inHostile.title!['font-size']).toBe('20px');
    expect(inHostile.title!['font-weight']).toBe('700');
    expect(inHostile.dialog!.width).toBe('380px');
    expect(inHostile.dialog!.opacity).toBe('1');
    const frame = await hostile.evaluate(() => {
      const root = document.querySelector('dialback-widget')!.shadowRoot!.querySelector('.root')!;
      const s = getComputedStyle(root);
      return { position: s.position, right: s.right, bottom: s.bottom };
    });
    expect(frame).toEqual({ position: 'fixed', right: '20px', bottom: '20px' });
  } finally {
    await plain.close();
    await hostile.close();
  }
});

test('the host page is untouched: no stylesheet added, its own elements keep their styles', async () => {
  const page = await stage.browser.newPage();
  try {
    await page.goto(stage.host.page('/untouched', { relayUrl: stage.system.relayUrl, noScript: true }));
    const snapshot = () =>
      page.evaluate(() => ({
        sheets: document.styleSheets.length,
        adopted: document.adoptedStyleSheets.length,
        headChildren: document.head.children.length,
        button:
          getComputedStyle(document.getElementById('host-button')!).cssText ||
          JSON.stringify(
            Object.fromEntries(
              [...getComputedStyle(document.getElementById('host-button')!)].map((p) => [p, getComputedStyle(document.getElementById('host-button')!).getPropertyValue(p)]),
            ),
          ),
        h1: getComputedStyle(document.querySelector('h1')!).fontSize,
      }));
    const before = await snapshot();
    await page.evaluate((src) => {
      const s = document.createElement('script');
      s.src = src;
      s.dataset.lang = 'en';
      document.body.appendChild(s);
    }, `${stage.system.relayUrl}/widget.js`);
    const w = widget(page);
    await w.launcher.click();
    await w.dialog.waitFor();
    expect(await snapshot()).toEqual(before);
  } finally {
    await page.close();
  }
});

test('theming: data-color, data-position and the documented custom properties', async () => {
  const page = await stage.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(
      stage.host.page('/themed', {
        relayUrl: stage.system.relayUrl,
        data: { color: '#ffeb3b', position: 'bottom-left' },
        head: '<style>dialback-widget { --dialback-offset-x: 32px; --dialback-radius: 4px; --dialback-font: Georgia, serif; }</style>',
      }),
    );
    const w = widget(page);
    await w.launcher.click();
    await w.dialog.waitFor();
    const styles = await page.evaluate(() => {
      const root = document.querySelector('dialback-widget')!.shadowRoot!;
      const s = (sel: string) => getComputedStyle(root.querySelector(sel)!);
      return {
        background: s('.launcher').backgroundColor,
        text: s('.launcher').color,
        left: s('.root').left,
        font: s('.root').fontFamily,
        radius: s('[role=dialog]').borderTopLeftRadius,
        submit: s('button[type=submit]').backgroundColor,
      };
    });
    expect(styles).toEqual({
      background: 'rgb(255, 235, 59)',
      text: 'lch(0 0 0)', // a light brand colour gets black text (computed in CSS)
      left: '32px',
      font: 'Georgia, serif',
      radius: '4px',
      submit: 'rgb(255, 235, 59)',
    });
  } finally {
    await page.close();
  }
});

test('prefers-reduced-motion: no entrance animation', async () => {
  const page = await stage.browser.newPage();
  try {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(stage.host.page('/calm', { relayUrl: stage.system.relayUrl }));
    const w = widget(page);
    await w.launcher.click();
    await w.dialog.waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('dialback-widget')!.shadowRoot!.querySelector('[role=dialog]')!).animationName)).toBe('none');
    expect(await page.evaluate(() => document.querySelector('dialback-widget')!.shadowRoot!.getAnimations().length)).toBe(0);
  } finally {
    await page.close();
  }
});
