// The whole dialog in jsdom against a scripted relay over real HTTP: honest states (form → sending
// → accepted → the call's steps), every relay error code put into words at the right place,
// consent, the Idempotency-Key rules, and events that never carry the number. Status notices, the
// call's steps and languages: app-progress.test.tsx.
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, test } from 'vitest';
import { errorStatus } from '../../server/src/contract/contract.ts';
import { bugOnlyCodes, type KnownCode } from '../../widget/src/api.ts';
import { messages as en } from '../../widget/src/ui/i18n/en.ts';
import type { Messages } from '../../widget/src/ui/i18n/types.ts';
import { accepted, dialog, phoneInput, showDialog, submit, type, useScriptedRelay } from '../support/app-dialog.tsx';
import { fakeTurnstile, removeFakeTurnstile } from '../support/fake-turnstile.ts';
import type { WidgetConfig } from '../../widget/src/config.ts';

const scripted = useScriptedRelay();
const show = (overrides: Partial<WidgetConfig> = {}, messages: Messages = en, withStatus = false) => showDialog(scripted.relay, overrides, messages, withStatus);

describe('form → sending → accepted', () => {
  test('sends the parsed number with its country and reads it back with an honest estimate', async () => {
    scripted.relay.on('POST /api/callback', accepted);
    scripted.relay.on('GET /api/callback/*', { status: 200, body: { requestId: 'req-1', outcome: 'accepted', pollAfterMs: 60_000 } });
    const { events } = show();
    expect(dialog().getAttribute('aria-modal')).toBe('true');
    expect(screen.getByRole('dialog', { name: en.title })).toBe(dialog());
    type(phoneInput(), '0501234567');
    expect(phoneInput().value).toBe('050 123 45 67');
    submit();
    await within(dialog()).findByText(en.sending);
    await within(dialog()).findByText('We will call +380 50 123 45 67.');
    await within(dialog()).findByText('Your phone should ring in about 25 seconds.');

    const post = scripted.relay.requests.find((r) => r.method === 'POST')!;
    expect(post.body).toMatchObject({ phone: '+380501234567', country: 'UA', locale: 'en' });
    expect((post.body as { pageUrl: string }).pageUrl).toBe(location.href);
    expect(post.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    expect(post.headers['content-type']).toBe('application/json');

    // Events tell the page what happened, never the number.
    expect(events.map(([name]) => name)).toEqual(['submit', 'success']);
    expect(JSON.stringify(events)).not.toMatch(/501234567|123 45 67|\*\*\*/);
    expect(events[1]![1]).toEqual({ requestId: 'req-1', status: 'accepted', estimateSeconds: 25 });
  });

  test('the light check answers at the field without asking the relay', async () => {
    show();
    type(phoneInput(), '050 12');
    submit();
    await within(dialog()).findByText(en.errors.phone_too_short);
    expect(phoneInput().getAttribute('aria-invalid')).toBe('true');
    expect(phoneInput().getAttribute('aria-describedby')).toContain('db-phone-error');
    expect(scripted.relay.requests).toHaveLength(0);
  });

  // Lithuania's trunk is 0 now ("0 612 34567", libphonenumber's own national format; 8 before):
  // the light check refused it as too long though the relay takes it.
  test.each(['0 612 34567', '8 612 34567', '+370 8 612 34567'])('a Lithuanian number typed %j (data-country LT) goes to the relay as +37061234567', async (typed) => {
    scripted.relay.on('POST /api/callback', accepted);
    scripted.relay.on('GET /api/callback/*', { status: 200, body: { requestId: 'req-1', outcome: 'accepted', pollAfterMs: 60_000 } });
    show({ country: 'LT' });
    type(phoneInput(), typed);
    submit();
    await within(dialog()).findByText('We will call +370 612 34567.');
    expect(within(dialog()).queryByText(en.errors.phone_too_long)).toBeNull();
    expect(scripted.relay.requests.find((r) => r.method === 'POST')!.body).toMatchObject({ phone: '+37061234567', country: 'LT' });
  });

  test('a pasted international number picks its country', () => {
    show();
    type(phoneInput(), '+48 512-345-678');
    expect(phoneInput().value).toBe('+48 512 345 678');
    expect((within(dialog()).getByLabelText(en.countryLabel) as HTMLSelectElement).value).toBe('PL');
  });
});

describe('every relay error code gets a clear sentence, at the field or above the button', () => {
  // null: no field, the error goes above the button. So for the captcha codes too: their field is
  // not shown here (no Turnstile configured).
  const fieldOfCode = (code: string) => (/phone|country_not_allowed|number_not_allowed/.test(code) ? 'phone' : code === 'consent_required' ? 'consent' : null);

  test.each(Object.entries(errorStatus))('%s (%d)', async (code, status) => {
    scripted.relay.on('POST /api/callback', { status, body: { error: { code, message: 'relay wording, not shown' } } });
    const field = fieldOfCode(code);
    const { events } = show({
      consentText: field === 'consent' ? 'I agree to be called.' : null,
      turnstileSiteKey: null,
    });
    if (field === 'consent') fireEvent.click(within(dialog()).getByLabelText('I agree to be called.'));
    type(phoneInput(), '050 123 45 67');
    submit();
    // A code only a bug of ours could earn has no sentence: it arrives as its status's code.
    const known: KnownCode = (bugOnlyCodes as readonly string[]).includes(code) ? 'invalid_request' : (code as KnownCode);
    const sentence = en.errors[known];
    const shown = await within(dialog()).findByText((text) => text.startsWith(sentence.split('.')[0]!));
    if (field === 'phone') {
      expect(shown.id).toBe('db-phone-error');
      expect(phoneInput().getAttribute('aria-invalid')).toBe('true');
    } else if (field === 'consent') {
      expect(shown.id).toBe('db-consent-error');
    } else {
      expect(shown.closest('#db-form-error')).not.toBeNull();
      // Not the visitor's fault: the office's own number is offered.
      expect(
        within(shown.closest('#db-form-error') as HTMLElement)
          .getByRole('link')
          .getAttribute('href'),
      ).toBe('tel:+380441112233');
    }
    expect(screen.queryByText('relay wording, not shown')).toBeNull();
    expect(events.at(-1)).toEqual(['error', { code: known }]);
  });

  test('the relay names the field: the error shows there', async () => {
    scripted.relay.on('POST /api/callback', { status: 400, body: { error: { code: 'invalid_request', message: 'x', field: 'phone' } } });
    show();
    type(phoneInput(), '050 123 45 67');
    submit();
    const shown = await within(dialog()).findByText(en.errors.invalid_request);
    expect(shown.id).toBe('db-phone-error');
  });

  test('rate_limited says when to try again', async () => {
    scripted.relay.on('POST /api/callback', { status: 429, body: { error: { code: 'rate_limited', message: 'x', retryAfter: 120 } } });
    show();
    type(phoneInput(), '050 123 45 67');
    submit();
    await within(dialog()).findByText('Too many requests for now. Please try again in 2 minutes.');
  });

  test('an unknown code from a newer relay still gets a sentence', async () => {
    scripted.relay.on('POST /api/callback', { status: 503, body: { error: { code: 'brand_new_code', message: 'x' } } });
    show();
    type(phoneInput(), '050 123 45 67');
    submit();
    await within(dialog()).findByText(en.errors.internal_error);
  });

  test.each([
    ['an HTML error page from a proxy', { status: 502, html: '<html><body><h1>502 Bad Gateway</h1></body></html>' }],
    ['an empty answer', { status: 502, body: undefined }],
  ])('%s is not a crash', async (_name, answer) => {
    scripted.relay.on('POST /api/callback', answer);
    show();
    type(phoneInput(), '050 123 45 67');
    submit();
    await within(dialog()).findByText(en.errors.internal_error);
  });
});

describe('Idempotency-Key', () => {
  test('re-sending after a lost answer reuses the key; a definitive answer or a new number gets a new one', async () => {
    scripted.relay.on('POST /api/callback', { status: 0, drop: true });
    show();
    type(phoneInput(), '050 123 45 67');
    submit();
    await within(dialog()).findByText(en.errors.network_error);
    submit();
    await waitFor(() => expect(scripted.relay.requests.filter((r) => r.method === 'POST')).toHaveLength(2));
    scripted.relay.on('POST /api/callback', { status: 400, body: { error: { code: 'upstream_rejected', message: 'x' } } });
    submit();
    await within(dialog()).findByText(en.errors.upstream_rejected);
    submit();
    await waitFor(() => expect(scripted.relay.requests.filter((r) => r.method === 'POST')).toHaveLength(4));
    // Sent is not answered: the form (and its input) is back once the answer is in.
    await within(dialog()).findByText(en.errors.upstream_rejected);
    type(phoneInput(), '050 123 45 68');
    submit();
    await waitFor(() => expect(scripted.relay.requests.filter((r) => r.method === 'POST')).toHaveLength(5));
    const keys = scripted.relay.requests.filter((r) => r.method === 'POST').map((r) => r.headers['idempotency-key']);
    expect(keys[1]).toBe(keys[0]); // same attempt, outcome unknown
    expect(keys[2]).toBe(keys[1]); // still the same attempt
    expect(keys[3]).not.toBe(keys[2]); // after a definitive refusal
    expect(keys[4]).not.toBe(keys[3]); // another number
  });
});

describe('Idempotency-Key with a security check', () => {
  afterEach(removeFakeTurnstile);

  test('a re-send after a lost answer keeps the key though it carries a new Turnstile token', async () => {
    const { issued } = fakeTurnstile();
    scripted.relay.on('POST /api/callback', { status: 0, drop: true });
    show({ turnstileSiteKey: '0x4AAA' });
    await waitFor(() => expect(issued()).toBe(1));
    type(phoneInput(), '050 123 45 67');
    submit();
    await within(dialog()).findByText(en.errors.network_error);
    await waitFor(() => expect(issued()).toBe(2));
    submit();
    await waitFor(() => expect(scripted.relay.requests.filter((r) => r.method === 'POST')).toHaveLength(2));
    const posts = scripted.relay.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => (r.body as { turnstileToken: string }).turnstileToken)).toEqual(['token-1', 'token-2']);
    expect(posts[1]!.headers['idempotency-key']).toBe(posts[0]!.headers['idempotency-key']);
  });
  test('a refusal in the browser (consent unticked) keeps the unspent token: one check, one token, sent once', async () => {
    const { issued } = fakeTurnstile();
    scripted.relay.on('POST /api/callback', accepted);
    scripted.relay.on('GET /api/callback/*', { status: 200, body: { requestId: 'req-1', outcome: 'accepted', pollAfterMs: 60_000 } });
    show({ turnstileSiteKey: '0x4AAA', consentText: 'I agree to be called.' });
    await waitFor(() => expect(issued()).toBe(1));
    type(phoneInput(), '050 123 45 67');
    submit();
    await within(dialog()).findByText(en.errors.consent_required);
    fireEvent.click(within(dialog()).getByLabelText('I agree to be called.'));
    submit();
    await within(dialog()).findByText('We will call +380 50 123 45 67.');
    expect(issued()).toBe(1);
    expect(scripted.relay.requests.filter((r) => r.method === 'POST').map((r) => (r.body as { turnstileToken: string }).turnstileToken)).toEqual(['token-1']);
  });
});

describe('consent', () => {
  test("a required checkbox with the site's sentence and privacy link; refused before any request when unticked", async () => {
    scripted.relay.on('POST /api/callback', accepted);
    scripted.relay.on('GET /api/callback/*', { status: 200, body: { requestId: 'req-1', outcome: 'accepted', pollAfterMs: 60_000 } });
    show({ consentText: 'I agree that Acme calls me about my request.', privacyUrl: 'https://acme.example/privacy' });
    const box = within(dialog()).getByLabelText('I agree that Acme calls me about my request.') as HTMLInputElement;
    expect(box.type).toBe('checkbox');
    expect(box.required).toBe(true);
    expect(within(dialog()).getByRole('link', { name: en.privacyLink }).getAttribute('href')).toBe('https://acme.example/privacy');
    type(phoneInput(), '050 123 45 67');
    submit();
    const error = await within(dialog()).findByText(en.errors.consent_required);
    expect(error.id).toBe('db-consent-error');
    expect(scripted.relay.requests).toHaveLength(0);
    fireEvent.click(box);
    submit();
    await within(dialog()).findByText('We will call +380 50 123 45 67.');
    expect(scripted.relay.requests.find((r) => r.method === 'POST')!.body).toMatchObject({ consent: true });
  });
});
