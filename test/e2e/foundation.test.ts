// The foundation flow end to end in real Chromium: a third-party page (another origin, hostile CSS)
// embeds widget.js; the visitor's browser holds the tracking cookies; the visitor clicks, types a
// national number and submits; the simulated service's call log then holds one row with the
// cookie's utm values, the _ga client id, the visitor's address and user agent.
import { expect, test } from 'vitest';
import { trackingCookie } from '../support/host-site.ts';
import { useStage } from '../support/stage.ts';

const stage = useStage();

const utmz = {
  utm_source: 'google',
  utm_medium: 'cpc',
  utm_campaign: 'spring_sale',
  utm_content: 'banner 2',
  utm_term: 'call back (not set)',
};

test('a callback requested on a third-party page lands in the call log with its attribution', async () => {
  const url = stage.host.page('/', { relayUrl: stage.system.relayUrl, data: { lang: 'en', country: 'UA' } });
  const context = await stage.browser.newContext();
  try {
    await context.addCookies([
      { name: 'rngst2', value: trackingCookie({ utmz, sl: 'a9068767-5b5c-4a53-9b7e-0d6f1b7c9e11' }), url: stage.host.url + '/' },
      { name: '_ga', value: 'GA1.1.1907690628.1747750782', url: stage.host.url + '/' },
      // A GA4 session cookie: looks similar, is not a client id.
      { name: '_ga_ABC123XYZ', value: 'GS2.1.s1747750782$o1$g1$t1747750800$j60$l0$h0', url: stage.host.url + '/' },
    ]);
    const page = await context.newPage();
    const userAgent = await page.evaluate(() => navigator.userAgent);
    await page.goto(url);

    await page.getByRole('button', { name: 'Call me back' }).click();
    const dialog = page.getByRole('dialog', { name: 'Request a call back' });
    const phone = dialog.getByLabel('Your phone number');
    await phone.pressSequentially('050 123 45 67');
    await expect.poll(() => phone.inputValue()).toBe('050 123 45 67');
    await dialog.getByRole('button', { name: 'Call me back' }).click();

    await expect.poll(() => dialog.getByText('We will call +380 50 123 45 67.').count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => stage.system.sim.calls.length, { timeout: 10_000 }).toBe(1);
    const call = stage.system.sim.calls[0]!;
    expect(call.caller).toBe('380501234567');
    expect({
      utmSource: call.utmSource,
      utmMedium: call.utmMedium,
      utmCampaign: call.utmCampaign,
      utmContent: call.utmContent,
      utmTerm: call.utmTerm,
    }).toEqual({ utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'spring_sale', utmContent: 'banner 2', utmTerm: 'call back (not set)' });
    expect(call.clientId).toBe('1907690628.1747750782');
    expect(call.clientIp).toBe('127.0.0.1');
    expect(call.userAgent).toBe(userAgent);
  } finally {
    await context.close();
  }
});

test('cookies are read when the visitor asks, never copied at page load: one a consent tool deleted after load is not sent', async () => {
  const url = stage.host.page('/', { relayUrl: stage.system.relayUrl, data: { lang: 'en', country: 'UA' } });
  const context = await stage.browser.newContext();
  try {
    await context.addCookies([
      { name: 'rngst2', value: trackingCookie({ utmz: { ...utmz, utm_source: 'bing' }, sl: 'b1' }), url: stage.host.url + '/' },
      { name: '_ga', value: 'GA1.1.111222333.1747750782', url: stage.host.url + '/' },
    ]);
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole('button', { name: 'Call me back' }).waitFor();
    // After load, before any intent: no chunk was fetched, the cookies go away.
    await context.clearCookies();
    expect(await page.evaluate(() => document.cookie)).toBe('');

    const before = stage.system.sim.calls.length;
    await page.getByRole('button', { name: 'Call me back' }).click();
    const dialog = page.getByRole('dialog', { name: 'Request a call back' });
    await dialog.getByLabel('Your phone number').pressSequentially('067 765 43 21');
    await dialog.getByRole('button', { name: 'Call me back' }).click();
    await expect.poll(() => stage.system.sim.calls.length, { timeout: 10_000 }).toBe(before + 1);
    const call = stage.system.sim.calls.at(-1)!;
    expect(call.caller).toBe('380677654321');
    expect(call.utmSource).not.toBe('bing');
    expect(call.clientId).toBe('');
  } finally {
    await context.close();
  }
});
