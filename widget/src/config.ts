// Configuration of one embed, read once from the script tag's data-* attributes. Every attribute
// is optional and every value is checked: a typo falls back to the documented default instead of
// breaking the host page. Kept small: this runs in the 3 KB entry.
import { countryOfLang, pickLang, type Lang } from './lang.ts';

/** Read by the entry: what the launcher and the first load need. */
export interface EntryConfig {
  /** Base URL of the relay without a trailing slash: `data-relay`, else the folder widget.js came from. */
  relay: string;
  lang: Lang;
  /** ISO 3166-1 alpha-2 country for national numbers: `data-country`, else from the page language. */
  country: string;
  /** `data-position="bottom-left"` (any value naming the left): the widget's corner; else bottom right. A flag, not the word: fewer bytes in the entry. */
  left: boolean;
  /** Accent colour (`data-color`, hex or any CSS colour the browser knows), null for the default. */
  color: string | null;
  /** The office's own number (`data-phone`) for `tel:` fallbacks, as written by the site owner. */
  phone: string | null;
  /** `tel:` URI of `phone` (digits and a leading plus only). */
  phoneHref: string | null;
  /** `data-launcher="false"` hides the floating button for sites that use their own `data-dialback-open`. */
  launcher: boolean;
}

/** Read by the UI chunk when it loads (keeps the entry small). */
export interface DialogConfig {
  /** Consent sentence (`data-consent-text`); when set the visitor must tick a checkbox. */
  consentText: string | null;
  /** `data-privacy-url`, http(s) only. */
  privacyUrl: string | null;
  /** `data-turnstile-sitekey`: Cloudflare Turnstile runs before each request. */
  turnstileSiteKey: string | null;
}

export type WidgetConfig = EntryConfig & DialogConfig;

/** An absolute http(s) URL, or null (never `javascript:` and friends). */
function httpUrl(value: string | null, base: string): string | null {
  try {
    const url = new URL(value!, base);
    return value && /^https?:$/.test(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

export function readConfig(script: Element | null, doc: Document, browserLanguages: readonly string[]): EntryConfig {
  const data = (name: string) => script?.getAttribute('data-' + name)?.trim() || null;
  const page = doc.location.href;
  const scriptUrl = httpUrl(script?.getAttribute('src') ?? null, page) ?? page;
  const [lang, region] = pickLang([data('lang'), doc.documentElement.lang, ...browserLanguages]);
  const country = data('country');
  const color = data('color');
  const phone = data('phone');
  const validPhone = phone && /^\+?[\d\s().-]{3,30}$/.test(phone) ? phone : null;
  return {
    relay: (httpUrl(data('relay'), page) ?? new URL('.', scriptUrl).href).replace(/\/+$/, ''),
    lang,
    country: country && /^[a-z]{2}$/i.test(country) ? country.toUpperCase() : (region ?? countryOfLang(lang)),
    left: /left/i.test(data('position') ?? ''),
    color: color && (/^#[\da-f]{3}([\da-f]{3})?$/i.test(color) || globalThis.CSS?.supports?.('color', color)) ? color : null,
    phone: validPhone,
    phoneHref: validPhone && 'tel:' + validPhone.replace(/[^\d+]/g, ''),
    launcher: !/^(false|no|off|0)$/i.test(data('launcher') ?? ''),
  };
}
