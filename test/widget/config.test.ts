// The script tag's data-* attributes → configuration, with explicit defaults for every attribute
// and no way for a typo to break the host page.
import { beforeEach, describe, expect, test } from 'vitest';
import { readConfig } from '../../widget/src/config.ts';
import { readDialogConfig } from '../../widget/src/ui/dialog-config.ts';

function script(attrs: Record<string, string>, src = 'https://calls.example.com/widget.js'): HTMLScriptElement {
  const el = document.createElement('script');
  el.setAttribute('src', src);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(`data-${k}`, v);
  return el;
}

beforeEach(() => {
  document.documentElement.removeAttribute('lang');
});

describe('readConfig', () => {
  test('defaults when the tag has no attributes', () => {
    expect(readConfig(script({}), document, [])).toEqual({
      relay: 'https://calls.example.com',
      lang: 'en',
      country: 'US',
      left: false,
      color: null,
      phone: null,
      phoneHref: null,
      launcher: true,
    });
  });

  test('every attribute, as a site owner writes them', () => {
    const config = readConfig(script({ lang: 'uk', country: 'ua', position: 'bottom-left', color: '#E91E63', phone: '+380 (44) 111-22-33', launcher: 'false' }), document, [
      'de-DE',
    ]);
    expect(config).toEqual({
      relay: 'https://calls.example.com',
      lang: 'uk',
      country: 'UA',
      left: true,
      color: '#E91E63',
      phone: '+380 (44) 111-22-33',
      phoneHref: 'tel:+380441112233',
      launcher: false,
    });
  });

  test('the relay defaults to the folder the script came from; data-relay overrides', () => {
    expect(readConfig(script({}, 'https://cdn.example/dialback/widget.js?v=2'), document, []).relay).toBe('https://cdn.example/dialback');
    expect(readConfig(script({ relay: 'https://relay.example/' }), document, []).relay).toBe('https://relay.example');
    expect(readConfig(script({ relay: 'javascript:alert(1)' }), document, []).relay).toBe('https://calls.example.com');
  });

  test('language: data-lang, then <html lang>, then the browser, then English', () => {
    document.documentElement.lang = 'pl-PL';
    expect(readConfig(script({ lang: 'de' }), document, ['ru']).lang).toBe('de');
    expect(readConfig(script({}), document, ['ru']).lang).toBe('pl');
    expect(readConfig(script({ lang: 'xx' }), document, ['ru']).lang).toBe('pl');
    document.documentElement.lang = 'fr';
    expect(readConfig(script({}), document, ['fr-FR', 'ru-RU', 'en']).lang).toBe('ru');
    expect(readConfig(script({}), document, ['fr-FR', 'es']).lang).toBe('en');
  });

  test('country: data-country, then the region of the language tag, then the language', () => {
    expect(readConfig(script({ country: 'PL', lang: 'uk' }), document, []).country).toBe('PL');
    expect(readConfig(script({ lang: 'de-AT' }), document, []).country).toBe('AT');
    expect(readConfig(script({ lang: 'uk' }), document, []).country).toBe('UA');
    expect(readConfig(script({ lang: 'pl' }), document, []).country).toBe('PL');
    expect(readConfig(script({ country: 'Ukraine', lang: 'uk' }), document, []).country).toBe('UA');
  });

  test('bad values fall back instead of breaking', () => {
    const config = readConfig(script({ color: 'url(javascript:alert(1))', phone: 'call us!', position: 'middle' }), document, []);
    expect(config.color).toBeNull();
    expect(config.phone).toBeNull();
    expect(config.phoneHref).toBeNull();
    expect(config.left).toBe(false);
  });

  test('a missing script element (loaded by a tag manager) still gives a working config', () => {
    const config = readConfig(null, document, ['uk-UA']);
    expect(config.lang).toBe('uk');
    expect(config.country).toBe('UA');
    expect(config.relay).toBe(new URL('.', location.href).href.replace(/\/$/, ''));
  });
});

describe('readDialogConfig (read by the UI chunk)', () => {
  test('consent text, privacy link and Turnstile site key', () => {
    expect(readDialogConfig(script({ 'consent-text': 'I agree to be called.', 'privacy-url': 'https://shop.example/privacy', 'turnstile-sitekey': '0x4AAA' }))).toEqual({
      consentText: 'I agree to be called.',
      privacyUrl: 'https://shop.example/privacy',
      turnstileSiteKey: '0x4AAA',
    });
  });

  test('defaults, and never a javascript: privacy link', () => {
    expect(readDialogConfig(script({}))).toEqual({ consentText: null, privacyUrl: null, turnstileSiteKey: null });
    expect(readDialogConfig(script({ 'privacy-url': 'javascript:alert(1)' })).privacyUrl).toBeNull();
    expect(readDialogConfig(script({ 'privacy-url': '/privacy' })).privacyUrl).toBe('/privacy');
  });
});
