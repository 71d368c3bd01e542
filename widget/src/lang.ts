// Which language the widget speaks: `data-lang`, then `<html lang>`, then the browser's list.
// Lives in the entry because the launcher's label must be right before the UI chunk arrives.

export const languages = ['en', 'uk', 'ru', 'pl', 'de'] as const;
export type Lang = (typeof languages)[number];

/** The first tag we speak, as [language, region]; `uk-UA` → ['uk', 'UA']. */
export function pickLang(tags: ReadonlyArray<string | null | undefined>): [Lang, string | undefined] {
  for (const tag of tags) {
    const [primary, region] = (tag ?? '').trim().split(/[-_]/);
    const lang = primary?.toLowerCase() as Lang;
    if (languages.includes(lang)) return [lang, region && /^[a-z]{2}$/i.test(region) ? region.toUpperCase() : undefined];
  }
  return ['en', undefined];
}

/**
 * The country for national numbers when `data-country` is absent: the region of the language tag
 * (`de-AT` → AT), else where most people writing that language call from: the language's own code
 * (pl → PL, de → DE, ru → RU) but for English (US) and Ukrainian (UA). Only a default: the visitor
 * can pick another country in the dialog.
 */
export const countryOfLang = (lang: Lang): string => (lang === 'en' ? 'US' : lang === 'uk' ? 'UA' : lang.toUpperCase());
