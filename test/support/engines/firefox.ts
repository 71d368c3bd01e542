// Firefox ESR through puppeteer-core over WebDriver BiDi (Debian packages no geckodriver, and
// Playwright's Firefox protocol needs Playwright's own patched build, which cannot be downloaded here).
// In the e2e project a file leases a launched Firefox from the pool (firefox-pool.ts) and works in a
// user context of its own; elsewhere it launches its own.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type LaunchOptions } from 'puppeteer-core';
import { inject } from 'vitest';
import { callSource, type Engine, type EnginePage, type KeyName } from './engine.ts';

const candidates = [process.env.FIREFOX_PATH, '/usr/bin/firefox-esr', '/usr/bin/firefox'];

export function firefoxPath(): string {
  const found = candidates.find((p): p is string => !!p && existsSync(p));
  if (!found) throw new Error("Firefox not found: install Debian's `firefox-esr` package (see .ci/run) or set FIREFOX_PATH");
  return found;
}

/** How every Firefox of the tests is launched, on a fresh `profile`. */
export function firefoxOptions(profile: string): LaunchOptions {
  return {
    browser: 'firefox',
    executablePath: firefoxPath(),
    protocol: 'webDriverBiDi',
    headless: true,
    userDataDir: profile,
    extraPrefsFirefox: {
      // No update checks, telemetry or first-run pages: nothing but the test talks to the network.
      'app.update.enabled': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'browser.shell.checkDefaultBrowser': false,
      // No form history: a number one file submitted is never offered in another file's field
      // (an Escape would then close the browser's drop-down, not the dialog).
      'browser.formfill.enable': false,
    },
  };
}

/** A browser of the pool for this file: resolved once the pool lends one; `giveBack` after the session ended. */
async function lease(port: number): Promise<{ browser: Browser; giveBack(): void }> {
  const socket = connect(port, '127.0.0.1');
  const endpoint = await new Promise<string>((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve(text.trim());
    });
    socket.once('error', reject);
    socket.once('close', () => reject(new Error('the Firefox pool closed the lease before lending a browser')));
  });
  const browser = await puppeteer.connect({ browserWSEndpoint: endpoint, protocol: 'webDriverBiDi' });
  return { browser, giveBack: () => socket.end('done\n') };
}

/** This file's Firefox: leased from the pool in the e2e project, else launched on a fresh profile. */
async function ownFirefox(): Promise<{ newPage: Browser['newPage']; close(): Promise<void> }> {
  const port = inject('firefoxPool');
  if (port) {
    const { browser, giveBack } = await lease(port);
    const context = await browser.createBrowserContext();
    return {
      newPage: () => context.newPage(),
      async close() {
        await context.close().catch(() => {});
        await browser.disconnect();
        giveBack();
      },
    };
  }
  const profile = mkdtempSync(join(tmpdir(), 'dialback-firefox-'));
  const browser = await puppeteer.launch(firefoxOptions(profile));
  return {
    newPage: () => browser.newPage(),
    async close() {
      await browser.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function launchFirefoxEngine(): Promise<Engine> {
  const browser = await ownFirefox();
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
    close: () => browser.close(),
  };
}
