// The dialog in jsdom against a scripted relay, after the form: what the status says before the
// visitor types, the call's real steps as the relay reports them, and the dialog in each language.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, test } from 'vitest';
import type { WidgetConfig } from '../../widget/src/config.ts';
import { messages as en } from '../../widget/src/ui/i18n/en.ts';
import { messages as uk } from '../../widget/src/ui/i18n/uk.ts';
import type { Messages } from '../../widget/src/ui/i18n/types.ts';
import { accepted, dialog, phoneInput, showDialog, submit, type, useScriptedRelay } from '../support/app-dialog.tsx';

const scripted = useScriptedRelay();
const show = (overrides: Partial<WidgetConfig> = {}, messages: Messages = en, withStatus = false) => showDialog(scripted.relay, overrides, messages, withStatus);

describe('status before the visitor types', () => {
  test('nobody free: says so, and the form stays', async () => {
    scripted.relay.on('GET /api/status', { status: 200, body: { available: false, agentsOnline: 2, agentsFree: 0, openNow: true, nextOpenAt: null, source: 'live' } });
    show({}, en, true);
    await within(dialog()).findByText(en.busy);
    expect(within(dialog()).getByLabelText(en.phoneLabel)).toBeTruthy();
  });

  test("closed: says when it opens, in the visitor's time, and offers the office number instead of the form", async () => {
    const opens = new Date(Date.now() + 86_400_000);
    opens.setHours(9, 0, 0, 0);
    scripted.relay.on('GET /api/status', {
      status: 200,
      body: { available: false, agentsOnline: 0, agentsFree: 0, openNow: false, nextOpenAt: opens.toISOString(), source: 'cached' },
    });
    show({}, en, true);
    await within(dialog()).findByText('We are closed now. We open tomorrow, 09:00 AM.');
    expect(screen.queryByLabelText(en.phoneLabel)).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('We are closed now. We open tomorrow, 09:00 AM.');
  });

  test('status unknown (service unreachable) is no reason to refuse', async () => {
    scripted.relay.on('GET /api/status', { status: 200, body: { available: false, agentsOnline: 0, agentsFree: 0, openNow: false, nextOpenAt: null, source: 'unknown' } });
    const { status } = show({}, en, true);
    // Wait until App has received the answer and rendered it: seeing only the request leave would
    // let the checks below run before the status could hide anything.
    await act(async () => {
      expect(await status).toMatchObject({ ok: true, data: { source: 'unknown', openNow: false } });
    });
    expect(scripted.relay.requests).toHaveLength(1);
    expect(within(dialog()).getByLabelText(en.phoneLabel)).toBeTruthy();
    expect(screen.queryByText(en.closedNow)).toBeNull();
  });
});

describe("the call's real progress", () => {
  test('steps follow the relay; "missed" offers to try again and the office number', async () => {
    const outcomes = ['agent_ringing', 'ringing_you', 'missed'];
    scripted.relay.on('POST /api/callback', accepted);
    scripted.relay.on('GET /api/callback/*', () => {
      const outcome = outcomes.shift() ?? 'missed';
      return { status: 200, body: { requestId: 'req-1', outcome, ...(outcome === 'missed' ? {} : { pollAfterMs: 500 }) } };
    });
    show();
    type(phoneInput(), '050 123 45 99');
    submit();
    await within(dialog()).findByText('We will call +380 50 123 45 99.');
    const steps = await screen.findByRole('list', { name: en.outcomeTitle });
    await waitFor(() => expect(within(steps).getByText(en.outcomes.agent_ringing).getAttribute('aria-current')).toBe('step'), { timeout: 4000 });
    await waitFor(() => expect(within(steps).getByText(en.outcomes.ringing_you).getAttribute('aria-current')).toBe('step'), { timeout: 4000 });
    await within(dialog()).findByText(en.outcomes.missed, undefined, { timeout: 4000 });
    expect(screen.getByRole('status').textContent).toBe(en.outcomes.missed);
    expect(screen.getByRole('link', { name: 'Call us: +380 44 111 22 33' }).getAttribute('href')).toBe('tel:+380441112233');
    fireEvent.click(screen.getByRole('button', { name: en.tryAgain }));
    expect(phoneInput().value).toBe('050 123 45 99');
  }, 15_000);

  test('connected, then completed', async () => {
    const outcomes = ['connected', 'completed'];
    scripted.relay.on('POST /api/callback', accepted);
    scripted.relay.on('GET /api/callback/*', () => {
      const outcome = outcomes.shift() ?? 'completed';
      return { status: 200, body: { requestId: 'req-1', outcome, ...(outcome === 'completed' ? {} : { pollAfterMs: 500 }) } };
    });
    show();
    type(phoneInput(), '050 123 45 67');
    submit();
    await within(dialog()).findByText(en.outcomes.completed, undefined, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: en.tryAgain })).toBeNull();
  }, 10_000);
});

describe('languages', () => {
  test('Ukrainian throughout, with Ukrainian plurals', async () => {
    scripted.relay.on('POST /api/callback', { ...accepted, body: { ...accepted.body, estimateSeconds: 22 } });
    scripted.relay.on('GET /api/callback/*', { status: 200, body: { requestId: 'req-1', outcome: 'accepted', pollAfterMs: 60_000 } });
    show({ lang: 'uk' }, uk);
    expect(screen.getByRole('dialog', { name: uk.title })).toBeTruthy();
    const input = within(dialog()).getByLabelText(uk.phoneLabel) as HTMLInputElement;
    type(input, '0501234567');
    fireEvent.click(within(dialog()).getByRole('button', { name: uk.submit }));
    await within(dialog()).findByText('Ми зателефонуємо на +380 50 123 45 67.');
    await within(dialog()).findByText('Ваш телефон задзвонить приблизно за 22 секунди.');
  });
});
