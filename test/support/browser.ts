// Real Chromium for end-to-end tests: Debian's `chromium` package driven by playwright-core.
// Browsers cannot be downloaded on our machines, so we never use Playwright's own builds.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];

function chromiumPath(): string {
  const found = candidates.find((p): p is string => !!p && existsSync(p));
  if (!found) throw new Error("Chromium not found: install Debian's `chromium` package (see .ci/run) or set CHROMIUM_PATH");
  return found;
}

/**
 * Launches headless Chromium with a fresh profile. Playwright refuses --user-data-dir in launch():
 * it gives every launch a fresh temporary profile of its own and removes it on close. `args` adds
 * switches, e.g. `--host-resolver-rules` to serve made-up host names from loopback ports.
 */
export async function launchChromium(options: { args?: readonly string[] } = {}): Promise<Browser & { dispose(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...(options.args ?? []),
    ],
  });
  return Object.assign(browser, {
    async dispose() {
      await browser.close().catch(() => {});
    },
  });
}
