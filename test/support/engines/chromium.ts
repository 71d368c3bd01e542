// Chromium through playwright-core: the same Debian Chromium and launcher as the main suite.
import { launchChromium } from '../browser.ts';
import { callSource, type Engine, type EnginePage, type KeyName } from './engine.ts';

export async function launchChromiumEngine(): Promise<Engine> {
  const browser = await launchChromium();
  return {
    name: 'chromium',
    async open(url, viewport) {
      const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto(url);
      const adapter: EnginePage = {
        // biome-ignore lint/security/noGlobalEval: runs the test's own function source in the page's global scope (the adapters pass functions as text)
        // biome-ignore lint/complexity/noCommaOperator: `(0, eval)` is the indirect, global-scope eval
        run: (fn, arg) => page.evaluate(([source, a]) => (0, eval)(source)(a), [callSource(fn), arg] as const),
        clickAt: (x, y) => page.mouse.click(x, y),
        press: (key: KeyName) => page.keyboard.press(key),
        type: (text) => page.keyboard.type(text),
        close: () => context.close(),
      };
      return adapter;
    },
    close: () => browser.dispose(),
  };
}
