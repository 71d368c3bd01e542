// The consent code in jsdom: each consent platform's signal as the platform really gives it (IAB
// TCF v2.2 through a CMP stub, Google Consent Mode's dataLayer commands, Cookiebot, OneTrust,
// dialback('consent')), which one wins, and the three data-consent modes.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { consentNow } from '../../widget/src/consent/consent.ts';

type Page = Window & Record<string, unknown>;
const page = window as unknown as Page;
const globals = ['__tcfapi', 'dataLayer', 'Cookiebot', 'OnetrustActiveGroups', 'OneTrust', 'wp_has_consent'];

afterEach(() => {
  for (const name of globals) delete page[name];
  vi.restoreAllMocks();
});

/** The consent as a chunk reads it: its own script tag (data-consent) and the entry's list of commands. */
function watch(mode?: string, told: unknown[] = []) {
  const script = document.createElement('script');
  if (mode !== undefined) script.setAttribute('data-consent', mode);
  const report = vi.fn();
  return { consent: () => consentNow({ script, told, report }), told, report };
}

/** A minimal CMP as IAB TCF v2.2 describes `__tcfapi`: addEventListener answers now (if it can) and at each change. */
function tcfStub() {
  const listeners: Array<(data: object, success: boolean) => void> = [];
  let data: object | null = null;
  page.__tcfapi = (command: string, version: number, callback: (data: object, success: boolean) => void) => {
    expect([command, version]).toEqual(['addEventListener', 2]);
    listeners.push(callback);
    if (data) callback(data, true);
  };
  return (eventStatus: string, consents: Record<number, boolean>, gdprApplies = true) => {
    data = { tcString: 'CP…', gdprApplies, eventStatus, cmpStatus: 'loaded', purpose: { consents, legitimateInterests: {} } };
    for (const listener of listeners) listener(data, true);
  };
}

const gtag = (...args: unknown[]) => {
  const layer = (page.dataLayer ??= []) as unknown[];
  // gtag pushes its arguments object, not an array.
  (function (..._: unknown[]) {
    // biome-ignore lint/complexity/noArguments: gtag pushes exactly this
    layer.push(arguments);
  })(...args);
};

describe('auto (the default)', () => {
  test('a page without any consent platform is read as before', () => {
    expect(watch().consent()).toEqual({ analytics: 'unknown', ads: 'unknown', source: 'none', cookiesRead: true });
  });

  test('IAB TCF: nothing while the banner shows, then the visitor’s purposes (1 and 8: analytics; 1 and 7: ads)', () => {
    const decide = tcfStub();
    const { consent } = watch();
    expect(consent()).toEqual({ analytics: 'unknown', ads: 'unknown', source: 'tcf', cookiesRead: false });
    decide('cmpuishown', {});
    expect(consent().analytics).toBe('unknown');
    decide('useractioncomplete', { 1: true, 7: true, 8: false });
    expect(consent()).toEqual({ analytics: 'denied', ads: 'granted', source: 'tcf', cookiesRead: false });
    decide('useractioncomplete', { 1: true, 7: true, 8: true });
    expect(consent()).toEqual({ analytics: 'granted', ads: 'granted', source: 'tcf', cookiesRead: true });
    // Without Purpose 1 nothing may be read from the device.
    decide('useractioncomplete', { 7: true, 8: true });
    expect(consent().analytics).toBe('denied');
  });

  test('IAB TCF: a CMP that already has the answer gives it at once; where the GDPR does not apply, both are granted', () => {
    tcfStub()('tcloaded', {}, false);
    expect(watch().consent()).toEqual({ analytics: 'granted', ads: 'granted', source: 'tcf', cookiesRead: true });
  });

  test('Google Consent Mode: default denied, then an update grants; a later default changes nothing', () => {
    gtag('js', new Date());
    gtag('consent', 'default', { analytics_storage: 'denied', ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', wait_for_update: 500 });
    page.dataLayer = [...(page.dataLayer as unknown[]), { event: 'gtm.js' }];
    const { consent } = watch();
    expect(consent()).toEqual({ analytics: 'denied', ads: 'denied', source: 'consent-mode', cookiesRead: false });
    gtag('consent', 'update', { analytics_storage: 'granted' });
    expect(consent()).toEqual({ analytics: 'granted', ads: 'denied', source: 'consent-mode', cookiesRead: true });
    gtag('consent', 'default', { analytics_storage: 'denied' });
    expect(consent().analytics).toBe('granted');
  });

  test('Google Consent Mode: of two defaults "denied" wins (one may name regions the widget cannot place the visitor in)', () => {
    gtag('consent', 'default', { analytics_storage: 'granted', ad_storage: 'granted' });
    gtag('consent', 'default', { analytics_storage: 'denied', region: ['PL', 'DE'] });
    expect(watch().consent()).toMatchObject({ analytics: 'denied', ads: 'granted' });
  });

  test('Google Consent Mode: a dataLayer without consent commands is no platform', () => {
    page.dataLayer = [{ event: 'gtm.js' }, ['consent', 'default']];
    expect(watch().consent().source).toBe('none');
  });

  test('Cookiebot: statistics (analytics) and marketing (ads), read each time (both false until the visitor answers)', () => {
    page.Cookiebot = { hasResponse: false, consent: { necessary: true, preferences: false, statistics: false, marketing: false } };
    const { consent } = watch();
    expect(consent()).toEqual({ analytics: 'denied', ads: 'denied', source: 'cookiebot', cookiesRead: false });
    Object.assign(page.Cookiebot as object, { hasResponse: true, consent: { necessary: true, statistics: true, marketing: false } });
    expect(consent()).toEqual({ analytics: 'granted', ads: 'denied', source: 'cookiebot', cookiesRead: true });
  });

  test('OneTrust: C0002 (analytics) and C0004 (ads) among the active groups, read each time it is asked', () => {
    page.OnetrustActiveGroups = ',C0001,';
    const { consent } = watch();
    expect(consent()).toEqual({ analytics: 'denied', ads: 'denied', source: 'onetrust', cookiesRead: false });
    page.OnetrustActiveGroups = ',C0001,C0002,';
    expect(consent()).toEqual({ analytics: 'granted', ads: 'denied', source: 'onetrust', cookiesRead: true });
    page.OnetrustActiveGroups = ',C0001,C0004,C00021,';
    expect(consent()).toMatchObject({ analytics: 'denied', ads: 'granted', cookiesRead: false });
  });

  test("the WordPress Consent API alone is no signal here: the WordPress plugin tells the widget with dialback('consent')", () => {
    page.wp_has_consent = () => false;
    expect(watch().consent().source).toBe('none');
  });

  test("dialback('consent', …) wins over every platform; the last one counts", () => {
    gtag('consent', 'default', { analytics_storage: 'granted', ad_storage: 'granted' });
    const { consent, told } = watch(undefined, [{ analytics: false, ads: true }]);
    expect(consent()).toEqual({ analytics: 'denied', ads: 'granted', source: 'command', cookiesRead: false });
    told.push({ analytics: 'granted', ads: 'denied' });
    expect(consent()).toEqual({ analytics: 'granted', ads: 'denied', source: 'command', cookiesRead: true });
    // Not an object: no answer of the command's, the platform's stands.
    told.push('yes');
    expect(consent().source).toBe('consent-mode');
  });

  test('the first platform with an answer wins: a TCF stub with no answer yet does not hide Cookiebot’s', () => {
    tcfStub();
    page.Cookiebot = { hasResponse: true, consent: { statistics: false, marketing: false } };
    expect(watch().consent()).toEqual({ analytics: 'denied', ads: 'denied', source: 'cookiebot', cookiesRead: false });
  });

  test('a platform that throws is no answer, reported, never thrown into the page', () => {
    Object.defineProperty(page, 'Cookiebot', {
      configurable: true,
      get() {
        throw new Error('broken plugin');
      },
    });
    const { consent, report } = watch();
    expect(consent().source).toBe('none');
    expect(report).toHaveBeenCalledWith(new Error('broken plugin'));
  });
});

describe('required and off', () => {
  test('required: no signal, nothing read; any answer but analytics granted reads nothing', () => {
    expect(watch('required').consent()).toEqual({ analytics: 'unknown', ads: 'unknown', source: 'none', cookiesRead: false });
    expect(watch('required', [{ analytics: true }]).consent()).toEqual({ analytics: 'granted', ads: 'unknown', source: 'command', cookiesRead: true });
  });

  test('off: every signal ignored, read as before', () => {
    page.Cookiebot = { hasResponse: true, consent: { statistics: false, marketing: false } };
    const { consent, told } = watch('off', [{ analytics: false }]);
    expect(consent()).toEqual({ analytics: 'unknown', ads: 'unknown', source: 'none', cookiesRead: true });
    told.push({ analytics: false });
    expect(consent().cookiesRead).toBe(true);
  });

  test('any other value counts as required', () => {
    expect(watch(' Requried ').consent().cookiesRead).toBe(false);
    expect(watch('AUTO').consent().cookiesRead).toBe(true);
  });
});

test('one TCF listener per CMP: asking again adds none', () => {
  const listen = vi.fn();
  page.__tcfapi = listen;
  const { consent } = watch();
  consent();
  consent();
  watch().consent();
  expect(listen).toHaveBeenCalledTimes(1);
});
