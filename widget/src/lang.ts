// Which language the widget speaks: `data-lang`, then `<html lang>`, then the browser's list, or with
// `data-lang="auto"` the browser's list alone. Lives in the entry because the launcher's label must
// be right before the UI chunk arrives; the languages are those the launcher has words for.
import { launcherText } from './launcher-text.ts';

export type Lang = keyof typeof launcherText;

/** The first tag we speak, as [language, region]; `uk-UA` → ['uk', 'UA']. */
export function pickLang(tags: ReadonlyArray<string | null | undefined>): [Lang, string | undefined] {
  for (const tag of tags) {
    const [primary, region] = (tag ?? '').trim().split(/[-_]/);
    const lang = primary!.toLowerCase();
    // Own keys only: `constructor` or `__proto__` in a page's lang attribute is no language.
    if (Object.hasOwn(launcherText, lang)) return [lang as Lang, region && /^[a-z]{2}$/i.test(region) ? region.toUpperCase() : undefined];
  }
  return ['en', undefined];
}
