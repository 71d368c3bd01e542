// "Call me later" in jsdom against a scripted relay over real HTTP, for a visitor in New York while
// the office (Kyiv, 09:00–18:00, UTC+2 in November) keeps its hours: the picker offers "as soon as
// you open" and half-hour slots in the visitor's own time and language, sends the instant the
// visitor picked, shows the booked, queued, re-dial and cancelled states, and cancels with the token.
// The clock is fixed (only Date is faked; timers and sockets stay real).
process.env.TZ = 'America/New_York';

import { h } from 'preact';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { ErrorCode, StatusResponse } from '../../server/src/contract/contract.ts';
import { createApi } from '../../widget/src/api.ts';
import { App } from '../../widget/src/ui/App.tsx';
import { messages as en } from '../../widget/src/ui/i18n/en.ts';
import { messages as uk } from '../../widget/src/ui/i18n/uk.ts';
import type { Messages } from '../../widget/src/ui/i18n/types.ts';
import { CallProgress } from '../../widget/src/ui/progress/CallProgress.tsx';
import { slotDays } from '../../widget/src/ui/schedule.tsx';
import { startScriptedRelay, type ScriptedRelay } from '../support/scripted-relay.ts';
import { testConfig, testContext } from '../support/ui-context.ts';

let relay: ScriptedRelay;
beforeAll(async () => {
  relay = await startScriptedRelay();
});
afterAll(async () => {
  await relay.close();
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  cleanup();
  relay.reset();
  vi.useRealTimers();
});

/** Kyiv office hours, Wednesday 25 to Friday 27 November 2026 and Monday 30 (07:00–16:00 UTC). */
const windows = ['2026-11-25', '2026-11-26', '2026-11-27', '2026-11-30'].map((day) => ({ opensAt: `${day}T07:00:00.000Z`, closesAt: `${day}T16:00:00.000Z` }));
/** Tuesday 24 November, 22:00 in Kyiv (closed), 15:00 in New York. */
const closedAt = '2026-11-24T20:00:00Z';
const closed: StatusResponse = { available: false, agentsOnline: 0, agentsFree: 0, openNow: false, nextOpenAt: windows[0]!.opensAt, source: 'live', windows };
/** Wednesday 25 November, 12:10 in Kyiv (open), 05:10 in New York. */
const openAt = '2026-11-25T10:10:00Z';
const open: StatusResponse = { available: true, agentsOnline: 2, agentsFree: 2, openNow: true, nextOpenAt: null, source: 'live', windows };

function show(status: StatusResponse, messages: Messages = en, lang: 'en' | 'uk' = 'en') {
  relay.on('GET /api/status', { status: 200, body: status });
  const config = testConfig({ relay: relay.url, lang });
  const { ctx, events } = testContext(config, messages);
  const api = createApi(relay.url, { isKnownCode: (c): c is ErrorCode => c in messages.errors });
  render(<App ctx={ctx} api={api} open={true} status={api.status()} onClose={() => {}} />);
  return { events };
}
const dialog = () => screen.getByRole('dialog');
function typePhone(value: string, messages: Messages = en) {
  const input = within(dialog()).getByLabelText(messages.phoneLabel) as HTMLInputElement;
  input.value = value;
  fireEvent.input(input);
}
const submit = (messages: Messages = en) => fireEvent.click(within(dialog()).getByRole('button', { name: messages.submit }));
const posted = () => relay.requests.find((r) => r.method === 'POST')?.body as { scheduledFor?: string } | undefined;

describe('closed: as soon as you open, or a day and time', () => {
  test('"as soon as you open" is the first choice; booked, then cancelled with the token', async () => {
    vi.setSystemTime(new Date(closedAt));
    const scheduledFor = windows[0]!.opensAt;
    relay.on('POST /api/callback', { status: 202, body: { status: 'scheduled', requestId: 'req-9', scheduledFor, cancelToken: 'tok-9', phoneMasked: '+380 50 *** ** 67' } });
    relay.on('GET /api/callback/*', { status: 200, body: { requestId: 'req-9', outcome: 'scheduled', scheduledFor, pollAfterMs: 60_000 } });
    relay.on('DELETE /api/callback/*', { status: 200, body: { requestId: 'req-9', outcome: 'cancelled' } });
    const { events } = show(closed);

    // The closed notice stays, the form is there, with the picker: 02:00 is New York's time.
    await within(dialog()).findByText('We are closed now. We open tomorrow, 02:00 AM.');
    const asap = (await within(dialog()).findByRole('radio', { name: 'As soon as you open (tomorrow, 02:00 AM)' })) as HTMLInputElement;
    expect(asap.checked).toBe(true);
    expect(within(dialog()).getByRole('group', { name: en.whenLabel })).toBeTruthy();
    expect(within(dialog()).queryByLabelText(en.timeLabel)).toBeNull();
    // Not "we will call you right away": nobody could.
    expect(within(dialog()).queryByText(en.intro)).toBeNull();
    typePhone('050 123 45 67');
    submit();

    await within(dialog()).findByText('We will call +380 50 123 45 67 tomorrow, 02:00 AM.');
    expect(posted()?.scheduledFor).toBe(scheduledFor);
    const steps = screen.getByRole('list', { name: en.outcomeTitle });
    expect(within(steps).getByText(en.outcomes.scheduled).getAttribute('aria-current')).toBe('step');
    expect(screen.queryByText(/Your phone should ring/)).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Call booked. We will call +380 50 123 45 67 tomorrow, 02:00 AM.');
    // The page learns the status and the time, never the number.
    expect(events.at(-1)).toEqual(['success', { requestId: 'req-9', status: 'scheduled', scheduledFor }]);

    fireEvent.click(screen.getByRole('button', { name: en.cancelCall }));
    await within(dialog()).findByText(en.outcomes.cancelled);
    const cancel = relay.requests.find((r) => r.method === 'DELETE')!;
    expect(cancel.path).toBe('/api/callback/req-9');
    expect(cancel.headers['cancel-token']).toBe('tok-9');
    expect(screen.queryByRole('button', { name: en.cancelCall })).toBeNull();
    expect(events.at(-1)?.[0]).toBe('success');
    // Another try is one click away, the number still filled in.
    fireEvent.click(screen.getByRole('button', { name: en.tryAgain }));
    expect((within(dialog()).getByLabelText(en.phoneLabel) as HTMLInputElement).value).toBe('050 123 45 67');
  });

  test("a day and a half-hour slot in the visitor's time zone; the instant sent is the office's", async () => {
    vi.setSystemTime(new Date(closedAt));
    relay.on('POST /api/callback', ({ body }) => ({
      status: 202,
      body: { status: 'scheduled', requestId: 'req-10', scheduledFor: (body as { scheduledFor: string }).scheduledFor, cancelToken: 't', phoneMasked: 'x' },
    }));
    relay.on('GET /api/callback/*', { status: 200, body: { requestId: 'req-10', outcome: 'scheduled', scheduledFor: '2026-11-26T09:30:00.000Z', pollAfterMs: 60_000 } });
    show(closed);
    fireEvent.click(await within(dialog()).findByRole('radio', { name: en.atTime }));

    const days = within(dialog()).getByRole('group', { name: en.dayLabel });
    expect(
      within(days)
        .getAllByRole('radio')
        .map((r) => r.parentElement!.textContent),
    ).toEqual(['Wed, Nov 25', 'Thu, Nov 26', 'Fri, Nov 27', 'Mon, Nov 30']);
    expect((within(days).getByRole('radio', { name: 'Wed, Nov 25' }) as HTMLInputElement).checked).toBe(true);
    const time = within(dialog()).getByLabelText(en.timeLabel) as HTMLSelectElement;
    const times = () => Array.from(time.options, (o) => o.textContent);
    // 09:00–18:00 in Kyiv is 02:00–11:00 in New York: 18 slots, the last one half an hour before closing.
    expect(times()).toHaveLength(18);
    expect([times()[0], times().at(-1)]).toEqual(['02:00 AM', '10:30 AM']);
    within(dialog()).getByText('Times are in your time zone (America/New_York).');

    fireEvent.click(within(days).getByRole('radio', { name: 'Thu, Nov 26' }));
    const option = Array.from(time.options).find((o) => o.textContent === '04:30 AM')!;
    fireEvent.change(time, { target: { value: option.value } });
    typePhone('050 123 45 67');
    submit();
    await within(dialog()).findByText('We will call +380 50 123 45 67 Thursday, 04:30 AM.');
    expect(posted()?.scheduledFor).toBe('2026-11-26T09:30:00.000Z');
  });

  test('a relay refusal of the time (scheduled_outside_hours) is said above the button; the picker stays', async () => {
    vi.setSystemTime(new Date(closedAt));
    relay.on('POST /api/callback', { status: 400, body: { error: { code: 'scheduled_outside_hours', message: 'x', field: 'scheduledFor' } } });
    show(closed);
    await within(dialog()).findByRole('radio', { name: en.atTime });
    typePhone('050 123 45 67');
    submit();
    await within(dialog()).findByText(en.errors.scheduled_outside_hours);
    expect(within(dialog()).getByRole('group', { name: en.whenLabel })).toBeTruthy();
  });

  test("Ukrainian: the choices and the days in the visitor's language", async () => {
    vi.setSystemTime(new Date(closedAt));
    show(closed, uk, 'uk');
    await within(dialog()).findByRole('radio', { name: 'Щойно відкриємося (завтра, 02:00)' });
    fireEvent.click(within(dialog()).getByRole('radio', { name: uk.atTime }));
    const days = within(dialog()).getByRole('group', { name: uk.dayLabel });
    expect(within(days).getAllByRole('radio')[0]!.parentElement!.textContent).toBe('ср, 25 лист.');
  });
});

describe('open: right away, or later if the visitor prefers', () => {
  test('"Call me later" fetches the picker and moves focus to it; "right away" sends no time', async () => {
    vi.setSystemTime(new Date(openAt));
    relay.on('POST /api/callback', { status: 202, body: { status: 'accepted', requestId: 'req-1', phoneMasked: 'x', estimateSeconds: 20 } });
    relay.on('GET /api/callback/*', { status: 200, body: { requestId: 'req-1', outcome: 'accepted', pollAfterMs: 60_000 } });
    show(open);
    // Before the status comes, the button holds its place unseen (the form must not move then).
    const button = within(dialog()).getByRole('button', { name: en.later });
    expect(button.className).toBe('link wait');
    await waitFor(() => expect(button.className).toBe('link'));
    fireEvent.click(button);
    const later = (await within(dialog()).findByRole('radio', { name: en.atTime })) as HTMLInputElement;
    expect(later.checked).toBe(true);
    await waitFor(() => expect(document.activeElement).toBe(later));
    // A time is chosen: the dialog no longer says "we will call you right away".
    expect(within(dialog()).queryByText(en.intro)).toBeNull();
    // Ten minutes from 05:10 at least, on the half hour: 05:30 today.
    const time = within(dialog()).getByLabelText(en.timeLabel) as HTMLSelectElement;
    expect(time.selectedOptions[0]!.textContent).toBe('05:30 AM');
    expect(new Date(Number(time.value)).toISOString()).toBe('2026-11-25T10:30:00.000Z');

    fireEvent.click(within(dialog()).getByRole('radio', { name: en.rightAway }));
    expect(within(dialog()).queryByLabelText(en.timeLabel)).toBeNull();
    expect(within(dialog()).getByText(en.intro)).toBeTruthy();
    typePhone('050 123 45 67');
    submit();
    await within(dialog()).findByText('Your phone should ring in about 20 seconds.');
    expect(posted()).not.toHaveProperty('scheduledFor');
  });

  test('no windows from the relay (no office hours, or an older relay): no "Call me later"', async () => {
    vi.setSystemTime(new Date(openAt));
    show({ ...open, windows: [] });
    await within(dialog()).findByLabelText(en.phoneLabel);
    // Its place was held, unseen, until the status came: then it goes.
    await waitFor(() => expect(within(dialog()).queryByRole('button', { name: en.later })).toBeNull());
    expect(relay.requests.some((r) => r.path === '/api/status')).toBe(true);
  });
});

describe('held through an outage', () => {
  test('queued: said honestly, cancellable; a refused cancel (already being placed) says why', async () => {
    vi.setSystemTime(new Date(openAt));
    relay.on('POST /api/callback', { status: 202, body: { status: 'queued', requestId: 'req-q', cancelToken: 'tok-q', phoneMasked: 'x' } });
    relay.on('GET /api/callback/*', { status: 200, body: { requestId: 'req-q', outcome: 'queued', pollAfterMs: 60_000 } });
    relay.on('DELETE /api/callback/*', { status: 409, body: { error: { code: 'not_cancellable', message: 'x' } } });
    const { events } = show(open);
    await within(dialog()).findByRole('button', { name: en.later });
    typePhone('050 123 45 67');
    submit();
    await within(dialog()).findByText(en.queuedNote);
    expect(events.at(-1)).toEqual(['success', { requestId: 'req-q', status: 'queued' }]);
    const steps = screen.getByRole('list', { name: en.outcomeTitle });
    expect(within(steps).getByText(en.outcomes.queued).getAttribute('aria-current')).toBe('step');
    fireEvent.click(screen.getByRole('button', { name: en.cancelCall }));
    await within(dialog()).findByText(en.errors.not_cancellable);
    expect(screen.getByRole('status').textContent).toBe(en.errors.not_cancellable);
    expect(relay.requests.find((r) => r.method === 'DELETE')!.headers['cancel-token']).toBe('tok-q');
  });
});

describe('the progress view of held calls', () => {
  const config = testConfig();
  const call = { name: 'accepted', status: 'accepted', requestId: 'r', readback: '+380 50 123 45 67', estimateSeconds: 20 } as const;

  test("redial: nobody answered, the next attempt's time, its own step", () => {
    vi.setSystemTime(new Date(openAt));
    render(
      <CallProgress
        config={config}
        messages={en}
        call={call}
        progress={{ requestId: 'r', outcome: 'redial', final: false, slow: false, scheduledFor: '2026-11-25T11:00:00.000Z' }}
        onRetry={() => {}}
      />,
    );
    expect(screen.getByText('We will call +380 50 123 45 67 today, 06:00 AM.')).toBeTruthy();
    expect(screen.getByText(en.outcomes.redial).getAttribute('aria-current')).toBe('step');
    // Placed at once, so no token: nothing to cancel.
    expect(screen.queryByRole('button', { name: en.cancelCall })).toBeNull();
  });

  test("a state left from an earlier call (cancelled) is not this booked call's: it shows as booked until the tracker speaks", () => {
    vi.setSystemTime(new Date(openAt));
    const booked = { ...call, status: 'scheduled', requestId: 'new', scheduledFor: '2026-11-26T09:30:00.000Z', cancelToken: 't' } as const;
    render(<CallProgress config={config} messages={en} call={booked} progress={{ requestId: 'old', outcome: 'cancelled', final: true, slow: false }} onRetry={() => {}} />);
    expect(screen.getByText('We will call +380 50 123 45 67 tomorrow, 04:30 AM.')).toBeTruthy();
    expect(screen.getByText(en.outcomes.scheduled).getAttribute('aria-current')).toBe('step');
    expect(screen.queryByText(en.outcomes.cancelled)).toBeNull();
    expect(screen.getByRole('button', { name: en.cancelCall })).toBeTruthy();
  });

  test('failed: said, with another try and the office number', () => {
    render(<CallProgress config={config} messages={en} call={call} progress={{ requestId: 'r', outcome: 'failed', final: true, slow: false }} onRetry={() => {}} />);
    expect(screen.getByText(en.outcomes.failed)).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.getByRole('button', { name: en.tryAgain })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Call us: +380 44 111 22 33' })).toBeTruthy();
  });
});

describe('no slot left', () => {
  test('open with five minutes to closing and no other window: "right away" only, no empty picker', async () => {
    vi.setSystemTime(new Date('2026-11-25T15:55:00Z'));
    show({ ...open, windows: [windows[0]!] });
    fireEvent.click(await within(dialog()).findByRole('button', { name: en.later }));
    const rightAway = (await within(dialog()).findByRole('radio', { name: en.rightAway })) as HTMLInputElement;
    expect(rightAway.checked).toBe(true);
    expect(within(dialog()).queryByRole('radio', { name: en.atTime })).toBeNull();
  });
});

describe('slots', () => {
  test("half hours from ten minutes ahead, grouped by the visitor's local day; a window across midnight splits", () => {
    const days = slotDays('en', [{ opensAt: '2026-11-25T03:00:00Z', closesAt: '2026-11-25T06:00:00Z' }], Date.parse('2026-11-25T03:55:00Z'));
    // 03:00Z–06:00Z is 22:00–01:00 in New York; now + 10 min = 04:05Z → first slot 04:30Z (23:30).
    expect(days.map((d) => [d.label, d.slots.map((t) => new Date(t).toISOString().slice(11, 16))])).toEqual([
      ['Tue, Nov 24', ['04:30']],
      ['Wed, Nov 25', ['05:00', '05:30']],
    ]);
  });
});
