// The WordPress plugin (widget/integrations/wordpress/dialback) in a real WordPress: Debian's 6.1
// on MariaDB and PHP's server (test/support/wordpress.ts), one site for the file, driven in real
// Chromium as an administrator and as visitors. Activated from the Plugins screen, configured
// through its own settings form, it prints the widget's tag async in the footer with the settings
// as data-* attributes, escaped; a visitor's callback reaches the simulated service through a real
// relay. With the WP Consent API, the widget is told the visitor's choice and each change of it.
// Only administrators reach the settings, only with the form's nonce; deleting the plugin deletes
// its settings. The tests run in order on the one site.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launcherText } from '../../widget/src/launcher-text.ts';

/** The widget's languages: those its launcher has words for. */
const languages = Object.keys(launcherText);
import { launchChromium } from '../support/browser.ts';
import { startSystem, type System } from '../support/system.ts';
import { consoleOf, widget } from '../support/widget-page.ts';
import { startWordPress, type WordPress } from '../support/wordpress.ts';

const pluginDir = join(import.meta.dirname, '../../widget/integrations/wordpress/dialback');
// Hostile on purpose: quotes and an ampersand that must stay text inside an attribute.
const inviteText = 'Ask "us" & we\'ll call" onload="window.__xss=1';

let wp: WordPress;
let system: System;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let admin: BrowserContext;

async function logIn(context: BrowserContext, user: { user: string; password: string }): Promise<Page> {
  const page = await context.newPage();
  await page.goto(wp.url + '/wp-login.php');
  await page.locator('#user_login').fill(user.user);
  await page.locator('#user_pass').fill(user.password);
  await Promise.all([page.waitForURL(/\/wp-admin\//), page.locator('#wp-submit').click()]);
  return page;
}

const option = async () => (await wp.sql("SELECT option_value FROM wp_options WHERE option_name = 'dialback_settings'")).trim();

beforeAll(async () => {
  [wp, browser] = await Promise.all([startWordPress({ plugins: { dialback: pluginDir } }), launchChromium()]);
  system = await startSystem({ ALLOWED_ORIGINS: wp.url });
  admin = await browser.newContext();
}, 60_000);

afterAll(async () => {
  await browser?.dispose();
  await system?.close();
  await wp?.close();
});

test('activated from the Plugins screen, it asks for its relay address and prints nothing until it has one', async () => {
  const page = await logIn(admin, wp.admin);
  await page.goto(wp.url + '/wp-admin/plugins.php');
  await page.locator('tr[data-plugin="dialback/dialback.php"] .activate a').click();
  await page.getByText('Plugin activated.').waitFor();
  await page.getByText('Dialback is active but shows nothing yet: set your relay address.').waitFor();
  expect(await (await fetch(wp.url + '/')).text()).not.toContain('widget.js');
  await page.close();
});

test('its settings are saved through its own form: every data-* setting, checked, and a refused value named', async () => {
  const page = await admin.newPage();
  await page.goto(wp.url + '/wp-admin/options-general.php?page=dialback');
  // A field for the relay and for every attribute docs/embedding.md lists; the widget's languages.
  const documented = [...readFileSync(join(import.meta.dirname, '../../docs/embedding.md'), 'utf8').matchAll(/^\| `data-([a-z-]+)`/gm)].map(([, name]) => name!);
  for (const name of ['relay', ...documented]) await page.locator(`#dialback_${name === 'relay' ? 'api' : name.replace(/-/g, '_')}`).waitFor({ state: 'attached' });
  expect(await page.locator('#dialback_lang option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(['', ...languages]);

  await page.locator('#dialback_relay').fill(system.relayUrl + '/');
  await page.locator('#dialback_lang').selectOption('uk');
  await page.locator('#dialback_country').fill('ua');
  await page.locator('#dialback_phone').fill('+380 44 111 22 33');
  await page.locator('#dialback_position').selectOption('bottom-left');
  await page.locator('#dialback_telegram').fill('@acme_support');
  await page.locator('#dialback_invite').fill('pages:99');
  await page.locator('#dialback_invite_text').fill(inviteText);
  await Promise.all([page.waitForURL(/settings-updated=true/), page.locator('#submit').click()]);
  await page.getByText('Settings saved.').waitFor();
  expect(await page.locator('#dialback_relay').inputValue()).toBe(system.relayUrl);
  expect(await page.locator('#dialback_country').inputValue()).toBe('UA');
  expect(await page.locator('#dialback_invite_text').inputValue()).toBe(inviteText);

  // A number the widget could not use: named, not saved, the saved one kept.
  await page.locator('#dialback_phone').fill('call us!');
  await Promise.all([page.waitForURL(/settings-updated=true/), page.locator('#submit').click()]);
  await page.getByText('Office phone number was not saved: it takes digits').waitFor();
  expect(await page.locator('#dialback_phone').inputValue()).toBe('+380 44 111 22 33');
  await page.close();
});

test("a visitor's page loads the widget async in the footer from the relay, and a callback reaches the service", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const console = consoleOf(page);
  try {
    await page.goto(wp.url + '/');
    const tag = page.locator('script#dialback-js');
    expect(
      await tag.evaluate((s) => ({
        async: (s as HTMLScriptElement).async,
        src: s.getAttribute('src'),
        inFooter: !!document.querySelector('h1 ~ script#dialback-js'),
        data: { ...(s as HTMLScriptElement).dataset },
      })),
    ).toEqual({
      async: true,
      src: system.relayUrl + '/widget.js',
      inFooter: true,
      data: { lang: 'uk', country: 'UA', phone: '+380 44 111 22 33', position: 'bottom-left', telegram: '@acme_support', invite: 'pages:99', inviteText },
    });
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

    await page.getByRole('button', { name: 'Передзвоніть мені' }).click();
    const dialog = widget(page).dialog;
    await expect.poll(() => dialog.locator('a[href="https://t.me/acme_support"]').count(), { timeout: 10_000 }).toBe(1);
    await dialog.getByLabel('Ваш номер телефону').pressSequentially('050 123 45 67');
    await dialog.getByRole('button', { name: 'Передзвоніть мені' }).click();
    await expect.poll(() => system.sim.calls.length, { timeout: 10_000 }).toBe(1);
    expect(system.sim.calls[0]!.caller).toBe('380501234567');
    expect(console.errors).toEqual([]);
    expect(console.lines.filter((line) => line.includes('[dialback]'))).toEqual([]);
  } finally {
    await context.close();
  }
});

test("with the WP Consent API the widget waits for the visitor's choice and is told each change", async () => {
  wp.addMuPlugin('consent-api.php');
  const context = await browser.newContext();
  // Records every call of window.dialback (the queue stub's and the widget's own) as the page makes it.
  await context.addInitScript(() => {
    const calls: unknown[] = [];
    let current: unknown;
    Object.assign(window, { __calls: calls });
    Object.defineProperty(window, 'dialback', {
      configurable: true,
      get: () => current,
      set(fn) {
        const record = (target: (...a: unknown[]) => unknown, self: unknown, args: unknown[]) => {
          calls.push(JSON.parse(JSON.stringify(args)));
          return Reflect.apply(target, self, args);
        };
        current = typeof fn === 'function' ? new Proxy(fn, { apply: record }) : fn;
      },
    });
  });
  const page = await context.newPage();
  try {
    await page.goto(wp.url + '/');
    expect(await page.locator('script#dialback-js').getAttribute('data-consent')).toBe('required');
    const consents = async () => ((await page.evaluate(() => (window as unknown as { __calls: unknown[][] }).__calls)) as unknown[][]).filter(([command]) => command === 'consent');
    await expect.poll(consents).toEqual([['consent', { analytics: false, ads: false }]]);
    await page.evaluate(() => (window as unknown as { wp_set_consent(c: string, v: string): void }).wp_set_consent('statistics', 'allow'));
    await page.evaluate(() => (window as unknown as { wp_set_consent(c: string, v: string): void }).wp_set_consent('marketing', 'allow'));
    await page.evaluate(() => (window as unknown as { wp_set_consent(c: string, v: string): void }).wp_set_consent('statistics', 'deny'));
    expect((await consents()).slice(1)).toEqual([
      ['consent', { analytics: true, ads: false }],
      ['consent', { analytics: true, ads: true }],
      ['consent', { analytics: false, ads: true }],
    ]);
    // The choice kept in the visitor's cookies is read on the next page.
    await page.reload();
    await expect.poll(consents).toEqual([['consent', { analytics: false, ads: true }]]);
  } finally {
    await context.close();
  }
});

test('only administrators reach the settings, and only through the form: a post without its nonce changes nothing', async () => {
  const visitor = await browser.newContext();
  try {
    const page = await logIn(visitor, wp.subscriber);
    await page.goto(wp.url + '/wp-admin/options-general.php?page=dialback');
    await page.getByText('Sorry, you are not allowed to access this page.').waitFor();
  } finally {
    await visitor.close();
  }
  const before = await option();
  const forged = await admin.request.post(wp.url + '/wp-admin/options.php', {
    form: { option_page: 'dialback', action: 'update', 'dialback_settings[phone]': '+1 555 0100' },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  expect(await forged.text()).toContain('The link you followed has expired.');
  expect(await option()).toBe(before);
});

test('deleting the plugin deletes its settings; PHP said nothing about its code', async () => {
  expect(await option()).toContain('relay');
  const page = await admin.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(wp.url + '/wp-admin/plugins.php');
  await page.locator('tr[data-plugin="dialback/dialback.php"] .deactivate a').click();
  await page.getByText('Plugin deactivated.').waitFor();
  await page.locator('tr[data-plugin="dialback/dialback.php"] .delete a').click();
  await page.getByText('Dialback click-to-call widget was successfully deleted.').waitFor();
  expect(await option()).toBe('');
  expect(wp.phpLogAbout('/plugins/dialback/')).toEqual([]);
  await page.close();
});
