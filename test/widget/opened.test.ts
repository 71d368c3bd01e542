// The open beacon's body: the campaign's utm values (from the tracking cookie, else the landing page's
// address), the page's path without its query, the department shown; nothing else, and nothing sent
// before the status has been answered (the department shown depends on it).
import { afterEach, expect, test, vi } from 'vitest';
import { countOpen, openBeacon } from '../../widget/src/ui/opened.ts';
import { testConfig, testContext } from '../support/ui-context.ts';

afterEach(() => {
  document.cookie = 'rngst2=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  vi.unstubAllGlobals();
});

test('utm values from the tracking cookie, the path cut to 200 characters, the department shown; no number, no client id', () => {
  document.cookie = `rngst2=${encodeURIComponent(JSON.stringify({ utmz: { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'spring', utm_term: 'pipes' } }))}; path=/`;
  document.cookie = '_ga=GA1.1.1907690628.1747750782; path=/';
  const { ctx } = testContext(testConfig());
  ctx.pick = Object.assign(() => [null] as never, { first: 'sales' });
  const beacon = openBeacon(ctx, '/' + 'p'.repeat(300));
  expect(beacon).toEqual({ utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'spring', page: '/' + 'p'.repeat(199), department: 'sales' });
  document.cookie = '_ga=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

test("without the cookie, the landing page's utm values; unknown fields are left out of the JSON", () => {
  const { ctx } = testContext(testConfig());
  ctx.pageAtLoad = 'https://shop.example/landing?utm_source=newsletter&utm_campaign=nov';
  expect(JSON.parse(JSON.stringify(openBeacon(ctx, '/pricing')))).toEqual({ utmSource: 'newsletter', utmCampaign: 'nov', page: '/pricing' });
});

test("without analytics consent the tracking cookie is not read: the landing page's utm values count", () => {
  document.cookie = `rngst2=${encodeURIComponent(JSON.stringify({ utmz: { utm_source: 'google', utm_medium: 'cpc' } }))}; path=/`;
  const { ctx } = testContext(testConfig());
  ctx.pageAtLoad = 'https://shop.example/landing?utm_source=newsletter';
  ctx.told.push({ analytics: false, ads: false });
  expect(JSON.parse(JSON.stringify(openBeacon(ctx, '/pricing')))).toEqual({ utmSource: 'newsletter', page: '/pricing' });
  // Granted on the same page: read from then on.
  ctx.told.push({ analytics: true, ads: false });
  expect(openBeacon(ctx, '/pricing')).toMatchObject({ utmSource: 'google', utmMedium: 'cpc' });
});

test('sent to the relay once the status is answered, or has failed', async () => {
  const sendBeacon = vi.fn(() => true);
  vi.stubGlobal('navigator', { ...navigator, sendBeacon });
  const { ctx } = testContext(testConfig({ relay: 'https://relay.example' }));
  let answer!: (value: never) => void;
  countOpen(ctx, new Promise((resolve) => (answer = resolve)));
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect(sendBeacon).not.toHaveBeenCalled();
  answer({ ok: true, data: {} } as never);
  await vi.waitFor(() => expect(sendBeacon).toHaveBeenCalledTimes(1));
  expect(sendBeacon).toHaveBeenCalledWith('https://relay.example/api/opened', JSON.stringify({ page: location.pathname }));

  countOpen(ctx, Promise.reject(new Error('relay unreachable')));
  await vi.waitFor(() => expect(sendBeacon).toHaveBeenCalledTimes(2));
});
