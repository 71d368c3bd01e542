// dialback('config', {...}) in real Chromium, the way Google Tag Manager's template hands settings
// over: the page queues the config through the stub, then a script element is created and inserted
// (as GTM's injectScript does) with no data-* attribute at all. The launcher (read by the entry) and
// the dialog's parts (read later by lazy chunks) follow the config; the call it places reaches the
// simulated service with the configured country. Last, what the GTM template itself queues (run in
// Node against fakes of GTM's sandbox) does the same in a page.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createSandbox, runTemplate, templateSections } from '../support/gtm-sandbox.ts';
import { useStage } from '../support/stage.ts';
import { consoleOf, widget } from '../support/widget-page.ts';

const stage = useStage();

const settings = { lang: 'pl', country: 'UA', position: 'bottom-left', phone: '+380 44 111 22 33', telegram: '@acme_support', consentText: 'Zgadzam się na telefon.' };

/** The queue stub, the commands (a config by default), then the script inserted the way a tag manager inserts it. */
function injected(relayUrl: string, config: unknown, commands: unknown[][] = [['config', config]]): string {
  return `<script>
window.dialback = window.dialback || function () { (dialback.q = dialback.q || []).push(arguments) };
${commands.map((args) => `dialback.apply(null, ${JSON.stringify(args)});`).join('\n')}
var s = document.createElement('script');
s.src = ${JSON.stringify(relayUrl + '/widget.js')};
s.async = true;
document.head.appendChild(s);
</script>`;
}

test('a config queued before an injected script configures the launcher, the dialog and the call', async () => {
  const url = stage.host.page('/config-command', { relayUrl: stage.system.relayUrl, noScript: true, head: injected(stage.system.relayUrl, settings) });
  const page = await stage.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const console = consoleOf(page);
  try {
    await page.goto(url);
    const launcher = page.getByRole('button', { name: 'Oddzwońcie do mnie' });
    await launcher.waitFor();
    const box = (await launcher.boundingBox())!;
    expect(box.x + box.width).toBeLessThan(640); // bottom left

    await launcher.click();
    const dialog = page.getByRole('dialog');
    // From the lazy chunks: the messenger links and the consent box read the same settings.
    await expect.poll(() => dialog.locator('a[href="https://t.me/acme_support"]').count(), { timeout: 10_000 }).toBe(1);
    await dialog.getByLabel('Zgadzam się na telefon.').check();
    // A national number of the configured country.
    await dialog.getByLabel('Twój numer telefonu').pressSequentially('050 123 45 67');
    await dialog.getByRole('button', { name: 'Oddzwońcie do mnie' }).click();
    await dialog.getByText('Zadzwonimy pod numer +380 50 123 45 67.').waitFor({ timeout: 10_000 });
    await expect.poll(() => stage.system.sim.calls.length, { timeout: 10_000 }).toBe(1);
    expect(stage.system.sim.calls[0]!.caller).toBe('380501234567');
    expect(console.errors).toEqual([]);
    expect(console.lines.filter((line) => line.includes('[dialback]'))).toEqual([]);
  } finally {
    await page.close();
  }
});

test('without the config the same injected script speaks the page language and sits bottom right: the config did the work', async () => {
  const url = stage.host.page('/config-command-none', { relayUrl: stage.system.relayUrl, noScript: true, head: injected(stage.system.relayUrl, {}) });
  const page = await stage.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(url);
    const launcher = page.getByRole('button', { name: 'Call me back' });
    await launcher.waitFor();
    const box = (await launcher.boundingBox())!;
    expect(box.x).toBeGreaterThan(640);
  } finally {
    await page.close();
  }
});

test('what the GTM template queues, replayed before its widget.js, configures the widget', async () => {
  // The template asks for https (as any site in production); the test relay is plain http on loopback.
  const sections = templateSections(join(import.meta.dirname, '../../widget/integrations/gtm/template.tpl'));
  const sandbox = createSandbox(sections);
  runTemplate(sections, sandbox, {
    relayUrl: 'https://calls.example.com',
    lang: 'uk',
    country: 'UA',
    position: 'bottom-right',
    launcher: true,
    telegram: '@acme_support',
    consent: 'auto',
  });
  expect(sandbox.injections.map((i) => i.url)).toEqual(['https://calls.example.com/widget.js']);
  const commands = (sandbox.window.dialback as { q: ArrayLike<unknown>[] }).q.map((args) => Array.from(args));
  const url = stage.host.page('/config-command-gtm', { relayUrl: stage.system.relayUrl, noScript: true, head: injected(stage.system.relayUrl, null, commands) });
  const page = await stage.browser.newPage();
  const console = consoleOf(page);
  try {
    await page.goto(url);
    const launcher = page.getByRole('button', { name: 'Передзвоніть мені' });
    await launcher.click();
    await expect.poll(() => widget(page).dialog.locator('a[href="https://t.me/acme_support"]').count(), { timeout: 10_000 }).toBe(1);
    expect(console.errors).toEqual([]);
    expect(console.lines.filter((line) => line.includes('[dialback]'))).toEqual([]);
  } finally {
    await page.close();
  }
});
