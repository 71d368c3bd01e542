// Consent that proves itself for a booked call, end to end in real Chromium: the office is closed,
// so the visitor's request is booked for the opening; with REQUIRE_CONSENT the relay keeps the
// consent record with the booking (the sentence's hash, the privacy page, the site, the number's
// keyed hash), before any call could be placed.
import { createHash, createHmac } from 'node:crypto';
import { expect, test } from 'vitest';
import { useStage } from '../support/stage.ts';
import { callbackCalls } from '../support/system.ts';
import { widget } from '../support/widget-page.ts';

/** Tuesday 8 January 2030, 22:00 in Kyiv: the office (Mon–Fri 09:00–18:00) is closed. */
const now = new Date('2030-01-08T20:00:00Z');
const HASH_SECRET = 'consent-booked-e2e-hash-secret-0123456789';
const stage = useStage((hostUrl) => ({ ALLOWED_ORIGINS: hostUrl, REQUIRE_CONSENT: 'true', WORKING_HOURS: 'Mon-Fri 09:00-18:00', TIMEZONE: 'Europe/Kyiv', HASH_SECRET }), {
  now: () => new Date(now),
});

const sentence = 'Так, передзвоніть мені щодо мого запиту (лише один раз).';

test('a booked call keeps the record of the sentence shown, with its booking and before any call', async () => {
  const page = await stage.browser.newPage();
  try {
    await page.clock.setFixedTime(now);
    await page.goto(stage.host.page('/consent-booked', { relayUrl: stage.system.relayUrl, data: { 'consent-text': sentence, 'privacy-url': '/privacy' } }));
    const w = widget(page);
    await w.launcher.click();
    await w.dialog.getByRole('radio').first().waitFor();
    await w.phone.pressSequentially('050 123 45 67');
    await w.dialog.getByLabel(sentence).check();
    await w.submit.click();
    await expect.poll(async () => (await stage.system.relay.app.stores.jobs.listPending(10)).length).toBe(1);
    const [job] = await stage.system.relay.app.stores.jobs.listPending(10);
    expect(job).toMatchObject({ stage: 'scheduled', requestedAs: 'scheduled', cancellable: true });
    expect(callbackCalls(stage.system)).toEqual([]);
    const records = stage.system.relay.app.consent.recent();
    expect(records).toEqual([
      {
        at: expect.any(String),
        callbackId: job!.callbackId,
        origin: stage.host.url,
        consented: true,
        textSha256: createHash('sha256').update(sentence, 'utf8').digest('hex'),
        privacyUrl: `${stage.host.url}/privacy`,
        numberHmac: createHmac('sha256', HASH_SECRET).update('+380501234567').digest('hex'),
      },
    ]);
  } finally {
    await page.close();
  }
});
