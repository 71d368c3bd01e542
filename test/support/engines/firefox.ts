// Firefox ESR through puppeteer-core over WebDriver BiDi (Debian packages no geckodriver, and
// Playwright's Firefox protocol needs Playwright's own patched build, which cannot be downloaded here).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { callSource, type Engine, type EnginePage, type KeyName } from './engine.ts';

const candidates = [process.env.FIREFOX_PATH, '/usr/bin/firefox-esr', '/usr/bin/firefox'];

export function firefoxPath(): string {
  const found = candidates.find((p): p is string => !!p && existsSync(p));
  if (!found) throw new Error("Firefox not found: install Debian's `firefox-esr` package (see .ci/run) or set FIREFOX_PATH");
  return found;
}

export async function launchFirefoxEngine(): Promise<Engine> {
  const profile = mkdtempSync(join(tmpdir(), 'dialback-firefox-'));
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath(),
    protocol: 'webDriverBiDi',
    headless: true,
    userDataDir: profile,
    // No update checks, telemetry or first-run pages: nothing but the test talks to the network.
    extraPrefsFirefox: { 'app.update.enabled': false, 'datareporting.policy.dataSubmissionEnabled': false, 'browser.shell.checkDefaultBrowser': false },
  });
  return {
    name: 'firefox',
    async open(url, viewport) {
      const page = await browser.newPage();
      await page.setViewport(viewport);
      await page.goto(url);
      const adapter: EnginePage = {
        // biome-ignore lint/security/noGlobalEval: runs the test's own function source in the page's global scope (the adapters pass functions as text)
        // biome-ignore lint/complexity/noCommaOperator: `(0, eval)` is the indirect, global-scope eval
        run: (fn, arg) => page.evaluate((source, a) => (0, eval)(source)(a), callSource(fn), arg as never) as never,
        clickAt: (x, y) => page.mouse.click(x, y),
        async press(key: KeyName) {
          if (key !== 'Shift+Tab') return page.keyboard.press(key);
          await page.keyboard.down('Shift');
          await page.keyboard.press('Tab');
          await page.keyboard.up('Shift');
        },
        type: (text) => page.keyboard.type(text),
        close: () => page.close(),
      };
      return adapter;
    },
    async close() {
      await browser.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
