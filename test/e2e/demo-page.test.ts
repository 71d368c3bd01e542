// The demo marketing page (demo/index.html) as a site owner sees it: the widget embedded with the
// plain script tag, the sample tracking cookies, the event log, the hostile-CSS switch, and a link
// to the owner view. Served here from its files (the relay serves the same files at / and /demo/
// in demo mode), with /widget.js pointing at a relay on another port.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { listen, type Listening } from '../support/listen.ts';
import { startSystem, type System } from '../support/system.ts';
import { consoleOf, widget } from '../support/widget-page.ts';

const demoDir = join(import.meta.dirname, '../../demo');
let site: Listening;
let system: System;
let relayUrl = '';
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  site = await listen(
    createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      const types: Record<string, string> = { html: 'text/html; charset=utf-8', css: 'text/css', js: 'text/javascript' };
      const file = path === '/' ? 'index.html' : /^\/demo\/([\w.-]+)$/.exec(path)?.[1];
      if (!file) return void res.writeHead(404).end();
      try {
        let body = readFileSync(join(demoDir, file), 'utf8');
        if (file === 'index.html') body = body.replace('src="/widget.js"', `src="${relayUrl}/widget.js"`);
        res.writeHead(200, { 'content-type': types[file.split('.').pop()!] ?? 'application/octet-stream' }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    }),
  );
  system = await startSystem({ ALLOWED_ORIGINS: site.url });
  relayUrl = system.relayUrl;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.dispose();
  await system?.close();
  await site?.close();
});

test('a site owner tries the demo: sample cookies, a callback, the events, the attribution in the call log', async () => {
  const page = await browser.newPage();
  try {
    const { errors } = consoleOf(page);
    await page.goto(site.url + '/');
    expect(await page.getByRole('link', { name: 'See the call log in the owner view →' }).getAttribute('href')).toBe('/owner');
    // The page embeds the widget exactly as a customer would.
    expect(await page.locator('script[src$="/widget.js"]').getAttribute('async')).not.toBeNull();

    await page.getByRole('button', { name: 'Set sample tracking cookies' }).click();
    await page.getByText('Done: utm_source=google').waitFor();

    await page.getByRole('button', { name: 'Try it: request a call back' }).click();
    const w = widget(page);
    await w.dialog.waitFor();
    await w.phone.pressSequentially('050 123 45 67');
    await w.submit.click();
    await w.dialog.getByText('We will call +380 50 123 45 67.').waitFor();

    const events = page.locator('#events li');
    await expect.poll(() => events.allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^dialback:success \{"requestId":/)]));
    expect((await events.allTextContents()).join(' ')).not.toMatch(/501234567|123 45 67/);

    await expect.poll(() => system.sim.calls.length).toBe(1);
    const call = system.sim.calls[0]!;
    expect([call.utmSource, call.utmMedium, call.utmCampaign]).toEqual(['google', 'cpc', 'spring_sale']);
    expect(call.clientId).toMatch(/^\d+\.\d+$/);
    expect(errors).toEqual([]);
  } finally {
    await page.close();
  }
});

test('the hostile-CSS switch changes the page, not the widget', async () => {
  const page = await browser.newPage();
  try {
    await page.goto(site.url + '/');
    const launcher = widget(page).launcher;
    await launcher.waitFor();
    const look = () =>
      launcher.evaluate((el) => {
        const s = getComputedStyle(el);
        return [s.fontFamily, s.fontSize, s.backgroundColor, s.textTransform].join('|');
      });
    const before = await look();
    const toggle = page.getByRole('button', { name: 'Switch on hostile CSS' });
    await toggle.click();
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/Comic Sans/);
    expect(await page.getByRole('button', { name: 'Switch off hostile CSS' }).getAttribute('aria-pressed')).toBe('true');
    expect(await look()).toBe(before);
  } finally {
    await page.close();
  }
});

test('no horizontal overflow on phones: at 320 and 375 px nothing reaches past the right edge', async () => {
  for (const width of [320, 375]) {
    const context = await browser.newContext({ viewport: { width, height: 667 }, deviceScaleFactor: 1 });
    try {
      const page = await context.newPage();
      await page.goto(site.url + '/');
      await widget(page).launcher.waitFor();
      const overflow = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        // Every element whose box ends past the viewport, to name the culprit when this fails.
        past: [...document.body.querySelectorAll('*')]
          .filter((el) => el.getBoundingClientRect().right > innerWidth + 0.5 && !el.closest('pre, .events'))
          .map((el) => `${el.tagName.toLowerCase()}${el.className ? '.' + el.className : ''} ends at ${Math.round(el.getBoundingClientRect().right)}`),
      }));
      expect(overflow, `at ${width} px`).toEqual({ scrollWidth: width, past: [] });
    } finally {
      await context.close();
    }
  }
});
