// Consent-aware attribution in real Chromium, with real consent flows on pages of their own: an IAB
// TCF v2.2 CMP (a minimal __tcfapi of the test's), Google Consent Mode (default denied, updated to
// granted), a Cookiebot-shaped and a OneTrust-shaped page, dialback('consent', …) with
// data-consent="required", and consent withdrawn. The page counts every read of document.cookie
// and every use of the widget's storage keys: without analytics consent the widget reads no cookie
// and writes nothing (the invitation's memory included), the landing page's utm values still count,
// and once consent arrives the request carries the cookies' attribution and the memory is written.
import type { BrowserContext, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import type { CallbackRequest, TrackingConsent } from '../../server/src/contract/contract.ts';
import type { PeriodLead } from '../../server/src/owner/period-leads.ts';
import { UNLIMITED } from '../support/engines/moves.ts';
import { trackingCookie } from '../support/host-site.ts';
import { useStage } from '../support/stage.ts';
import { QUICK_CALLS } from '../support/system.ts';
import { widget } from '../support/widget-page.ts';

const OWNER_TOKEN = 'owner_e2e_consent_0123456789abcdef';
const stage = useStage((hostUrl) => ({ ALLOWED_ORIGINS: hostUrl, OWNER_TOKEN, ...UNLIMITED }), { simulator: { timing: QUICK_CALLS } });
const LANDING = '?utm_source=newsletter&utm_medium=email';
const fromCookies = { utmSource: 'google', utmMedium: 'cpc', clientId: '1907690628.1747750782' };
let pageCount = 0;

/** Counts, in the page, each read of document.cookie and each use of a `dialback:` storage key. */
const instrument = () => {
  const seen = { cookieReads: 0, storage: [] as string[] };
  (window as unknown as { seen: typeof seen }).seen = seen;
  const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
  Object.defineProperty(Document.prototype, 'cookie', {
    ...cookie,
    get() {
      seen.cookieReads++;
      return cookie.get!.call(this);
    },
  });
  for (const method of ['getItem', 'setItem', 'removeItem'] as const) {
    const original = Storage.prototype[method] as (...args: string[]) => unknown;
    Storage.prototype[method] = function (this: Storage, ...args: string[]) {
      if (String(args[0]).startsWith('dialback:')) seen.storage.push(`${this === localStorage ? 'local' : 'session'} ${method} ${args[0]}`);
      return original.apply(this, args);
    } as never;
  }
};

/** A minimal IAB TCF v2.2 CMP: addEventListener answers at once with what it has, and again at each decision. */
const tcfCmp = `<script>
(() => {
  const listeners = [];
  let data = { tcString: '', gdprApplies: true, eventStatus: 'cmpuishown', cmpStatus: 'loaded', purpose: { consents: {}, legitimateInterests: {} } };
  window.__tcfapi = (command, version, callback) => {
    if (command === 'addEventListener') { listeners.push(callback); callback({ ...data, listenerId: listeners.length }, true); }
    else if (command === 'ping') callback({ gdprApplies: true, cmpLoaded: true, cmpStatus: 'loaded', apiVersion: '2.2' }, true);
  };
  window.decide = (consents) => {
    data = { ...data, tcString: 'CQ' + Object.keys(consents).join(''), eventStatus: 'useractioncomplete', purpose: { consents, legitimateInterests: {} } };
    listeners.forEach((callback, i) => callback({ ...data, listenerId: i + 1 }, true));
  };
})();
</script>`;

/** Google Consent Mode v2 as a site puts it before its tags: everything denied by default. */
const consentMode = `<script>
window.dataLayer = window.dataLayer || [];
function gtag() { dataLayer.push(arguments); }
gtag('consent', 'default', { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', analytics_storage: 'denied', wait_for_update: 500 });
gtag('js', new Date());
window.decide = () => gtag('consent', 'update', { ad_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted', analytics_storage: 'granted' });
</script>`;

/** Cookiebot's window object and events; `answered`: the visitor accepted statistics on an earlier visit. */
const cookiebot = (answered: boolean) => `<script>
window.Cookiebot = { hasResponse: ${answered}, consented: ${answered}, declined: false, consent: { necessary: true, preferences: ${answered}, statistics: ${answered}, marketing: false, method: ${answered ? "'explicit'" : 'null'} } };
window.decide = (statistics, marketing) => {
  Object.assign(Cookiebot, { hasResponse: true, consented: statistics, declined: !statistics });
  Object.assign(Cookiebot.consent, { preferences: statistics, statistics, marketing, method: 'explicit' });
  window.dispatchEvent(new Event(statistics ? 'CookiebotOnAccept' : 'CookiebotOnDecline'));
};
</script>`;

/** OneTrust's active groups and its OnConsentChanged; the banner is open (only strictly necessary cookies). */
const oneTrust = `<script>
window.OnetrustActiveGroups = ',C0001,';
let closed = false;
const told = [];
window.OneTrust = { IsAlertBoxClosed: () => closed, OnConsentChanged: (fn) => told.push(fn) };
window.decide = (groups) => {
  closed = true;
  window.OnetrustActiveGroups = ',' + groups.join(',') + ',';
  window.dispatchEvent(new CustomEvent('OneTrustGroupsUpdated', { detail: groups }));
  told.forEach((fn) => fn({ detail: groups }));
};
</script>`;

/** The queue stub, with the site's own "no" told before the script arrives. */
const toldNo = `<script>
window.dialback = window.dialback || function () { (dialback.q = dialback.q || []).push(arguments) };
dialback('consent', { analytics: false, ads: false });
</script>`;

interface Seen {
  cookieReads: number;
  storage: string[];
}
const seen = (page: Page) => page.evaluate(() => (window as unknown as { seen: Seen }).seen);
/** What the widget stored, read past the page's counters (named properties, not getItem). */
const stored = (page: Page) =>
  page.evaluate(() => ({ session: sessionStorage['dialback:pages'] ?? null, invited: sessionStorage['dialback:invited'] ?? null, asked: 'dialback:asked' in localStorage }));

/**
 * A fresh browser with the tracking script's cookies and the page's counters, and the widget on a
 * page with `head` (its consent platform). The invitation counts pages there (pages:5): its memory
 * is at work from the page's start.
 */
async function visitor(head: string, data: Record<string, string> = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await stage.browser.newContext();
  await context.addCookies([
    { name: 'rngst2', value: trackingCookie({ utmz: { utm_source: 'google', utm_medium: 'cpc' }, sl: 'b1' }), url: stage.host.url + '/' },
    { name: '_ga', value: 'GA1.1.1907690628.1747750782', url: stage.host.url + '/' },
  ]);
  await context.addInitScript(instrument);
  const page = await context.newPage();
  await page.goto(stage.host.page(`/consent-${++pageCount}`, { relayUrl: stage.system.relayUrl, data: { invite: 'exit pages:5', ...data }, head }) + LANDING);
  await widget(page).launcher.waitFor();
  return { context, page };
}

/** The invitation (asked for by the page) and the dialog's first open: its beacon's body. */
async function inviteAndOpen(page: Page): Promise<Record<string, string>> {
  await page.evaluate(() => (window as unknown as { dialback: (c: string) => void }).dialback('invite'));
  await page.getByRole('button', { name: 'Questions? We can call you back right now.' }).waitFor();
  const beacon = page.waitForRequest((r) => r.url().endsWith('/api/opened'));
  await widget(page).launcher.click();
  await widget(page).dialog.waitFor();
  return JSON.parse((await beacon).postData()!) as Record<string, string>;
}

/** Types `digits` and asks for the call; returns the request's body and the call the service placed. */
async function requestCall(page: Page, digits: string) {
  const w = widget(page);
  const request = page.waitForRequest((r) => r.url().endsWith('/api/callback') && r.method() === 'POST');
  await w.phone.pressSequentially(digits);
  await w.submit.click();
  const body = (await request).postDataJSON() as CallbackRequest;
  const caller = '380' + digits.replace(/\D/g, '').slice(1);
  await expect.poll(() => stage.system.sim.calls.find((c) => c.caller === caller), { timeout: 10_000 }).toBeTruthy();
  await page
    .getByText(/^We will call /)
    .first()
    .waitFor();
  const call = stage.system.sim.calls.find((c) => c.caller === caller)!;
  return { body, call: { utmSource: call.utmSource, utmMedium: call.utmMedium, clientId: call.clientId } };
}

/** Nothing read from the device, nothing written to it: the landing page's utm values only. */
async function expectNothingTouched(page: Page, beacon: Record<string, string>) {
  expect(beacon).toMatchObject({ utmSource: 'newsletter', utmMedium: 'email' });
  expect(await seen(page)).toEqual({ cookieReads: 0, storage: [] });
  expect(await stored(page)).toEqual({ session: null, invited: null, asked: false });
}

/**
 * Consent arrived on this page: the request carries the cookies' attribution, and the invitation's
 * memory writes to the storage from then on (the request's "asked"); what it kept in the page before
 * (this page counted, the invitation shown) stays there.
 */
async function expectReadAfterConsent(page: Page, digits: string, consent: TrackingConsent) {
  const { body, call } = await requestCall(page, digits);
  expect(body.trackingConsent).toEqual(consent);
  expect(body.attribution).toEqual(fromCookies);
  expect(call).toEqual(fromCookies);
  expect((await seen(page)).cookieReads).toBeGreaterThan(0);
  await expect.poll(() => stored(page)).toEqual({ session: null, invited: null, asked: true });
}

/**
 * Each consent platform's flow: the page with it, what the visitor (or the site) does before the
 * widget is used (`refuse`) and what makes analytics consent granted (`grant`): both run in the
 * page; then the consent the request must carry.
 */
const flows: Array<{ name: string; head: string; data?: Record<string, string>; refuse?: string; grant: string; consent: TrackingConsent }> = [
  {
    name: 'IAB TCF: no cookie read and nothing stored while the banner shows and after a "no"; read once the visitor agrees',
    head: tcfCmp,
    refuse: 'decide({ 1: false, 7: false, 8: false })',
    grant: 'decide({ 1: true, 7: true, 8: true })',
    consent: { analytics: 'granted', ads: 'granted', source: 'tcf', cookiesRead: true },
  },
  {
    name: 'Google Consent Mode: default denied, nothing read; updated to granted, read',
    head: consentMode,
    grant: 'decide()',
    consent: { analytics: 'granted', ads: 'granted', source: 'consent-mode', cookiesRead: true },
  },
  {
    name: 'Cookiebot: nothing read before the visitor answers; read after "accept"',
    head: cookiebot(false),
    grant: 'decide(true, false)',
    consent: { analytics: 'granted', ads: 'denied', source: 'cookiebot', cookiesRead: true },
  },
  {
    name: 'OneTrust: nothing read while only strictly necessary cookies are active; read once performance (C0002) is',
    head: oneTrust,
    grant: "decide(['C0001', 'C0002', 'C0004'])",
    consent: { analytics: 'granted', ads: 'granted', source: 'onetrust', cookiesRead: true },
  },
  {
    name: 'dialback(\'consent\', …) with data-consent="required": the site\'s own "no", then its "yes"',
    head: toldNo,
    data: { consent: 'required' },
    grant: "dialback('consent', { analytics: true, ads: false })",
    consent: { analytics: 'granted', ads: 'denied', source: 'command', cookiesRead: true },
  },
];

flows.forEach((flow, i) => {
  test(flow.name, async () => {
    const { context, page } = await visitor(flow.head, flow.data);
    try {
      if (flow.refuse) await page.evaluate(flow.refuse);
      await expectNothingTouched(page, await inviteAndOpen(page));
      await page.evaluate(flow.grant);
      await expectReadAfterConsent(page, `050 100 00 0${i + 1}`, flow.consent);
    } finally {
      await context.close();
    }
  });
});

test('data-consent="required" on a page without any consent signal: nothing is ever read or stored; the call is placed all the same', async () => {
  const { context, page } = await visitor('', { consent: 'required' });
  try {
    await expectNothingTouched(page, await inviteAndOpen(page));
    const { body, call } = await requestCall(page, '050 100 00 11');
    expect(body.trackingConsent).toEqual({ analytics: 'unknown', ads: 'unknown', source: 'none', cookiesRead: false });
    expect(body.attribution).toEqual({ utmSource: 'newsletter', utmMedium: 'email' });
    expect(call).toEqual({ utmSource: 'newsletter', utmMedium: 'email', clientId: '' });
    expect(await seen(page)).toEqual({ cookieReads: 0, storage: [] });
    expect(await stored(page)).toEqual({ session: null, invited: null, asked: false });
  } finally {
    await context.close();
  }
});

test('consent withdrawn (Cookiebot, "decline" after an earlier "accept"): reading and storing stop; the owner view says why the lead has no client id', async () => {
  const { context, page } = await visitor(cookiebot(true));
  try {
    await page.evaluate(() => (window as unknown as { dialback: (c: string) => void }).dialback('invite'));
    await page.getByRole('button', { name: 'Questions? We can call you back right now.' }).waitFor();
    expect(await stored(page)).toEqual({ session: '1', invited: '1', asked: false });
    await page.evaluate(() => (window as unknown as { decide: (s: boolean, m: boolean) => void }).decide(false, false));
    await page.evaluate(() => Object.assign((window as unknown as { seen: Seen }).seen, { cookieReads: 0, storage: [] }));
    await widget(page).launcher.click();
    await widget(page).dialog.waitFor();
    const { body, call } = await requestCall(page, '050 100 00 12');
    expect(body.trackingConsent).toEqual({ analytics: 'denied', ads: 'denied', source: 'cookiebot', cookiesRead: false });
    expect(call).toEqual({ utmSource: 'newsletter', utmMedium: 'email', clientId: '' });
    expect(await seen(page)).toEqual({ cookieReads: 0, storage: [] });
    expect(await stored(page)).toEqual({ session: '1', invited: '1', asked: false });

    // The owner's leads of today: this one's client id is missing because the visitor declined.
    const owner = await context.newPage();
    await owner.goto(`${stage.system.relayUrl}/owner?token=${OWNER_TOKEN}`);
    const row = owner.locator('#period-leads-table tr[data-callback]', { hasText: '*** **12' });
    await expect.poll(() => row.locator('td.client-id').textContent(), { timeout: 10_000 }).toBe('None: the visitor declined analytics (Cookiebot), so no cookie was read');
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const leads = (await (await fetch(`${stage.system.relayUrl}/owner/api/leads?from=${day(-1)}&to=${day(1)}`, { headers: { 'x-owner-token': OWNER_TOKEN } })).json()) as {
      leads: PeriodLead[];
    };
    expect(leads.leads.find((l) => l.number?.endsWith('12'))).toMatchObject({ clientId: null, consent: 'denied', consentSource: 'cookiebot' });
  } finally {
    await context.close();
  }
});
