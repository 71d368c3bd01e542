// Consent that proves itself, end to end in real Chromium: a site asks for consent with its own
// sentence and a link to its privacy page; the visitor ticks the box and asks for a call; the relay
// (REQUIRE_CONSENT on) takes the request and its consent record holds the hash of exactly the
// sentence the visitor saw, the request the privacy page's full address.
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { widget } from '../support/widget-page.ts';
import { useStage } from '../support/stage.ts';

const stage = useStage((hostUrl) => ({ ALLOWED_ORIGINS: hostUrl, REQUIRE_CONSENT: 'true' }));

const sentence = 'I agree that Acme & Co. may call me back about my request — once, and only for it.';

test('the consent record hashes the sentence shown; the request names the privacy page shown', async () => {
  const page = await stage.browser.newPage();
  try {
    await page.goto(stage.host.page('/consent', { relayUrl: stage.system.relayUrl, data: { 'consent-text': sentence, 'privacy-url': '/privacy' } }));
    const bodies: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/callback')) bodies.push(request.postDataJSON());
    });
    const w = widget(page);
    await w.launcher.click();
    await w.phone.pressSequentially('050 123 45 67');
    const box = w.dialog.getByLabel(sentence);
    // What the visitor reads beside the box is the site's sentence, unchanged.
    expect(await w.dialog.locator('label[for=db-consent]').textContent()).toBe(sentence);
    await box.check();
    await w.submit.click();
    await w.dialog.getByText('We will call +380 50 123 45 67.').waitFor();

    expect(bodies).toEqual([expect.objectContaining({ consent: true, consentText: sentence, privacyUrl: `${stage.host.url}/privacy` })]);
    const records = stage.system.relay.app.consent.recent();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      consented: true,
      textSha256: createHash('sha256').update(sentence, 'utf8').digest('hex'),
      privacyUrl: `${stage.host.url}/privacy`,
      origin: stage.host.url,
    });
  } finally {
    await page.close();
  }
});
