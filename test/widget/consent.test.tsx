// What the relay's consent record can prove: every callback request, a call now or a booked one,
// carries the consent sentence exactly as the dialog showed it and the privacy link shown beside it
// (resolved, as the browser follows it); a site that asks for no consent sends neither. Runs the
// whole dialog in jsdom against a scripted relay over real HTTP, and checks each body against the
// relay's own schema.
import { h } from 'preact';
import { cleanup, fireEvent, render, waitFor, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { CallbackRequest, type ErrorCode, type StatusResponse } from '../../server/src/contract/contract.ts';
import { createApi } from '../../widget/src/api.ts';
import type { WidgetConfig } from '../../widget/src/config.ts';
import { App } from '../../widget/src/ui/App.tsx';
import { messages as en } from '../../widget/src/ui/i18n/en.ts';
import { messages as uk } from '../../widget/src/ui/i18n/uk.ts';
import type { Messages } from '../../widget/src/ui/i18n/types.ts';
import { startScriptedRelay, type ScriptedRelay } from '../support/scripted-relay.ts';
import { testConfig, testContext } from '../support/ui-context.ts';

let relay: ScriptedRelay;
beforeAll(async () => {
  relay = await startScriptedRelay();
});
afterAll(async () => {
  await relay.close();
});
afterEach(() => {
  cleanup();
  relay.reset();
});

type When = 'now' | 'booked';
const hour = 3_600_000;

/** The office is open and takes bookings for the next day: "Call me later" is offered. */
function openOffice(): StatusResponse {
  const now = Date.now();
  return {
    available: true,
    agentsOnline: 1,
    agentsFree: 1,
    openNow: true,
    nextOpenAt: null,
    source: 'live',
    windows: [{ opensAt: new Date(now - hour).toISOString(), closesAt: new Date(now + 24 * hour).toISOString() }],
  };
}

/**
 * Fills the dialog in as a visitor would (ticking the consent box when there is one) and sends a call
 * now or a booked call. Returns the body the relay received and what the consent box showed.
 */
async function requestCall(when: When, overrides: Partial<WidgetConfig>, m: Messages = en) {
  const config = testConfig({ relay: relay.url, ...overrides });
  relay.on('GET /api/status', { status: 200, body: openOffice() });
  relay.on(
    'POST /api/callback',
    when === 'now'
      ? { status: 202, body: { status: 'accepted', requestId: 'req-1', phoneMasked: '+380 50 *** ** 67', estimateSeconds: 25 } }
      : ({ body }) => ({
          status: 202,
          body: { status: 'scheduled', requestId: 'req-1', scheduledFor: (body as { scheduledFor: string }).scheduledFor, cancelToken: 'tok-1', phoneMasked: '+380 50 *** ** 67' },
        }),
  );
  relay.on('GET /api/callback/*', { status: 200, body: { requestId: 'req-1', outcome: when === 'now' ? 'accepted' : 'scheduled', pollAfterMs: 60_000 } });
  const { ctx } = testContext(config, m);
  const api = createApi(relay.url, { isKnownCode: (c): c is ErrorCode => c in m.errors });
  const view = render(<App ctx={ctx} api={api} open={true} status={api.status()} onClose={() => {}} />);
  const dialog = within(view.getByRole('dialog'));

  if (when === 'booked') {
    const later = dialog.getByRole('button', { name: m.later });
    await waitFor(() => expect(later.className).toBe('link'));
    fireEvent.click(later);
    expect(((await dialog.findByRole('radio', { name: m.atTime })) as HTMLInputElement).checked).toBe(true);
  }
  const phone = dialog.getByLabelText(m.phoneLabel) as HTMLInputElement;
  phone.value = '050 123 45 67';
  fireEvent.input(phone);
  const box = view.container.querySelector<HTMLInputElement>('#db-consent');
  if (box) fireEvent.click(box);
  const shown = {
    sentence: view.container.querySelector('label[for=db-consent]')?.textContent ?? null,
    link: dialog.queryByRole('link', { name: m.privacyLink })?.getAttribute('href') ?? null,
    linkTarget: (dialog.queryByRole('link', { name: m.privacyLink }) as HTMLAnchorElement | null)?.href ?? null,
  };
  fireEvent.click(dialog.getByRole('button', { name: m.submit }));
  await dialog.findByRole('list', { name: m.outcomeTitle });

  const posts = relay.requests.filter((r) => r.method === 'POST');
  expect(posts).toHaveLength(1);
  const body = posts[0]!.body as CallbackRequest;
  // The relay would take it as it is.
  expect(CallbackRequest.safeParse(body).success).toBe(true);
  if (when === 'booked') expect(body.scheduledFor).toMatch(/^\d{4}-\d\d-\d\dT/);
  else expect(body).not.toHaveProperty('scheduledFor');
  return { body, shown };
}

const calls: When[] = ['now', 'booked'];

describe('the consent the visitor saw travels with the request', () => {
  test.each(calls)("call %s: the site's sentence and its privacy link, exactly as shown", async (when) => {
    const sentence = 'I agree that Acme Ltd. may call me back about my request, once.';
    const { body, shown } = await requestCall(when, { consentText: sentence, privacyUrl: 'https://acme.example/privacy?lang=en#calls' });
    expect(shown).toEqual({ sentence, link: 'https://acme.example/privacy?lang=en#calls', linkTarget: 'https://acme.example/privacy?lang=en#calls' });
    expect(body).toMatchObject({ consent: true, consentText: shown.sentence, privacyUrl: shown.linkTarget });
  });

  test.each(calls)('call %s: a Ukrainian sentence byte for byte, and a link to a page of the site sent as the address it opens', async (when) => {
    const sentence = 'Погоджуюся, щоб «Акме» зателефонувала мені щодо мого запиту — один раз.';
    const { body, shown } = await requestCall(when, { lang: 'uk', consentText: sentence, privacyUrl: '/privacy' }, uk);
    expect(shown.sentence).toBe(sentence);
    expect(shown.link).toBe('/privacy');
    expect(shown.linkTarget).toBe(new URL('/privacy', document.baseURI).href);
    expect(body).toMatchObject({ consent: true, consentText: sentence, privacyUrl: shown.linkTarget, locale: 'uk' });
  });

  test.each(calls)('call %s: a sentence shown without a privacy link sends no link', async (when) => {
    const { body, shown } = await requestCall(when, { consentText: 'I agree to be called.' });
    expect(shown.link).toBeNull();
    expect(body).toMatchObject({ consent: true, consentText: 'I agree to be called.' });
    expect(body).not.toHaveProperty('privacyUrl');
  });

  test.each(calls)('call %s: a site that asks for no consent shows no box and sends no consent, sentence or link', async (when) => {
    // data-privacy-url alone shows nothing: the link only ever sits beside the consent box.
    const { body, shown } = await requestCall(when, { consentText: null, privacyUrl: 'https://acme.example/privacy' });
    expect(shown).toEqual({ sentence: null, link: null, linkTarget: null });
    expect(body).not.toHaveProperty('consent');
    expect(body).not.toHaveProperty('consentText');
    expect(body).not.toHaveProperty('privacyUrl');
  });
});

describe('what the relay would refuse is left out, and the call still goes', () => {
  test('a sentence over 2,000 characters, a link that leads nowhere', async () => {
    const sentence = `I agree. ${'Terms. '.repeat(300)}`.trim();
    expect(sentence.length).toBeGreaterThan(2000);
    const { body } = await requestCall('now', { consentText: sentence, privacyUrl: 'https://' });
    expect(body.consent).toBe(true);
    expect(body).not.toHaveProperty('consentText');
    expect(body).not.toHaveProperty('privacyUrl');
  });
});

describe("the relay's schema for privacyUrl", () => {
  const base = { phone: '+380501234567', consent: true, consentText: 'I agree to be called.' };
  test.each(['https://acme.example/privacy', 'http://localhost:8080/privacy#calls'])('takes %s', (privacyUrl) => {
    expect(CallbackRequest.safeParse({ ...base, privacyUrl }).success).toBe(true);
  });
  test.each(['/privacy', 'javascript:alert(1)', 'ftp://acme.example/privacy', `https://acme.example/${'p'.repeat(2000)}`])('refuses %s', (privacyUrl) => {
    const result = CallbackRequest.safeParse({ ...base, privacyUrl });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['privacyUrl']);
  });
});
