// The twelve languages in a real browser: data-lang="auto" follows the browser's own languages
// (navigator.languages, whatever <html lang> says), and each language's words reach the page: the
// launcher's label from the entry, the dialog from that language's catalog (its own chunk, the only
// one fetched), the country for national numbers from the catalog when the tag names none.
import { expect, test } from 'vitest';
import { messages as cs } from '../../widget/src/ui/i18n/cs.ts';
import { messages as en } from '../../widget/src/ui/i18n/en.ts';
import { messages as es } from '../../widget/src/ui/i18n/es.ts';
import { messages as et } from '../../widget/src/ui/i18n/et.ts';
import { messages as kk } from '../../widget/src/ui/i18n/kk.ts';
import { messages as lt } from '../../widget/src/ui/i18n/lt.ts';
import { messages as lv } from '../../widget/src/ui/i18n/lv.ts';
import { messages as ro } from '../../widget/src/ui/i18n/ro.ts';
import type { Messages } from '../../widget/src/ui/i18n/types.ts';
import { useStage } from '../support/stage.ts';

const stage = useStage();

/** Opens the widget on a page in a browser speaking `locale`; what the visitor reads, and which catalogs came. */
async function visit(locale: string, data: Record<string, string>, htmlLang = 'en') {
  const context = await stage.browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  try {
    const catalogs: string[] = [];
    page.on('request', (r) => {
      const name = /\/chunks\/([a-z]{2})-[\w-]+\.js$/.exec(r.url())?.[1];
      if (name) catalogs.push(name);
    });
    await page.goto(stage.host.page(`/lang-${locale}-${Object.values(data).join('-')}`, { relayUrl: stage.system.relayUrl, data: { country: '', ...data }, htmlLang }));
    const launcher = page.locator('dialback-widget button.launcher');
    const label = await launcher.textContent();
    await launcher.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const select = dialog.locator('#db-country');
    return {
      languages: await page.evaluate(() => navigator.languages),
      label,
      title: await dialog.locator('h2').textContent(),
      phoneLabel: await dialog.locator('label[for=db-phone]').textContent(),
      country: await select.inputValue(),
      catalogs,
    };
  } finally {
    await context.close();
  }
}

const seen = (m: Messages, country: string, lang: string) => ({ label: m.launcher, title: m.title, phoneLabel: m.phoneLabel, country, catalogs: [lang] });

test('data-lang="auto": the first of the browser\'s languages the widget speaks, not the page\'s; else English', async () => {
  // A Czech browser on an English page.
  const czech = await visit('cs-CZ', { lang: 'auto' });
  expect(czech.languages[0]).toBe('cs-CZ');
  expect(czech).toMatchObject(seen(cs, 'CZ', 'cs'));
  // Kazakh without a region: the country is the language's own, from its catalog.
  expect(await visit('kk', { lang: 'auto' }, 'ru')).toMatchObject(seen(kk, 'KZ', 'kk'));
  // A language the widget does not speak: English, whatever the page says it is written in.
  expect(await visit('fr-FR', { lang: 'auto' }, 'pl')).toMatchObject(seen(en, 'US', 'en'));
  // Without data-lang (empty), the page's language comes first, as before.
  expect(await visit('cs-CZ', { lang: '' }, 'lt')).toMatchObject(seen(lt, 'LT', 'lt'));
});

test.each([
  ['ro', ro, 'RO'],
  ['lv', lv, 'LV'],
  ['et', et, 'EE'],
  ['es', es, 'ES'],
])('data-lang="%s": the launcher, the dialog and the country in that language', async (lang, m, country) => {
  expect(await visit('en-US', { lang })).toMatchObject(seen(m, country, lang));
});
