// Components on their own: the dialog shell's keyboard handling, the security check's token life
// cycle, and the call-progress view in each outcome.
import { h } from 'preact';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { Dialog } from '../../widget/src/ui/Dialog.tsx';
import { messages as en } from '../../widget/src/ui/i18n/en.ts';
import { messages as pl } from '../../widget/src/ui/i18n/pl.ts';
import { CountrySelect } from '../../widget/src/ui/CountrySelect.tsx';
import { CallProgress } from '../../widget/src/ui/progress/CallProgress.tsx';
import type { CallProgressState } from '../../widget/src/ui/progress/track.ts';
import { StatusNotice } from '../../widget/src/ui/StatusNotice.tsx';
import { Turnstile } from '../../widget/src/ui/Turnstile.tsx';
import { fakeTurnstile, removeFakeTurnstile } from '../support/fake-turnstile.ts';
import { testConfig } from '../support/ui-context.ts';

afterEach(() => {
  cleanup();
  removeFakeTurnstile();
});

describe('Dialog', () => {
  function shell(onClose = vi.fn()) {
    render(
      <Dialog title="Request a call back" closeLabel="Close" view="form" onClose={onClose}>
        <input type="tel" aria-label="phone" />
        <button type="button">Send</button>
      </Dialog>,
    );
    return onClose;
  }

  test('labelled by its title, modal, and focus starts in the phone field', async () => {
    shell();
    const dialog = screen.getByRole('dialog', { name: 'Request a call back' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('phone')));
  });

  test('Esc closes', () => {
    const onClose = shell();
    fireEvent.keyDown(screen.getByLabelText('phone'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledOnce();
  });

  test('Tab on the last control wraps to the first; Shift+Tab on the first to the last', () => {
    shell();
    const close = screen.getByRole('button', { name: 'Close' });
    const send = screen.getByRole('button', { name: 'Send' });
    send.focus();
    expect(fireEvent.keyDown(send, { key: 'Tab' })).toBe(false); // default prevented
    expect(document.activeElement).toBe(close);
    expect(fireEvent.keyDown(close, { key: 'Tab', shiftKey: true })).toBe(false);
    expect(document.activeElement).toBe(send);
    // In between, the browser moves focus as usual.
    screen.getByLabelText('phone').focus();
    expect(fireEvent.keyDown(screen.getByLabelText('phone'), { key: 'Tab' })).toBe(true);
  });
});

describe('Turnstile', () => {
  test("renders with the site key, hands up its token, and a new check first drops the old check's token", async () => {
    const { api, rendered } = fakeTurnstile();
    const tokens: Array<string | null> = [];
    const props = { siteKey: '0x4AAA', lang: 'pl', label: pl.captchaLabel, error: null, onToken: (t: string | null) => tokens.push(t), onFailure: vi.fn() };
    const view = render(<Turnstile {...props} />);
    await waitFor(() => expect(api.render).toHaveBeenCalledOnce());
    expect(rendered[0]).toMatchObject({ sitekey: '0x4AAA', language: 'pl' });
    expect(screen.getByRole('group', { name: pl.captchaLabel })).toBeTruthy();
    expect(tokens).toEqual([null, 'token-1']);
    // Unmounted (the form makes way for "sending…"): the widget goes with it.
    view.unmount();
    expect(api.remove).toHaveBeenCalledExactlyOnceWith('w1');
    // The form comes back after the answer: a fresh check, whose first act is to drop the spent token.
    render(<Turnstile {...props} />);
    await waitFor(() => expect(api.render).toHaveBeenCalledTimes(2));
    expect(tokens).toEqual([null, 'token-1', null, 'token-2']);
    expect(api.reset).not.toHaveBeenCalled();
  });

  test("its error sits inside the check's group", () => {
    (globalThis as { turnstile?: unknown }).turnstile = { render: () => 'w', reset() {}, remove() {} };
    render(<Turnstile siteKey="k" lang="en" label={en.captchaLabel} error={en.errors.captcha_failed} onToken={() => {}} onFailure={() => {}} />);
    const group = screen.getByRole('group', { name: en.captchaLabel });
    expect(group.getAttribute('aria-describedby')).toBe('db-captcha-error');
    expect(group.textContent).toContain(en.errors.captcha_failed);
  });
});

describe('CallProgress', () => {
  const config = testConfig();
  const view = (progress: CallProgressState, onRetry = vi.fn()) => {
    const call = { name: 'accepted', status: 'accepted', requestId: 'req-1', readback: '+380 50 123 45 67', estimateSeconds: 20 } as const;
    render(<CallProgress config={config} messages={en} call={call} progress={{ requestId: 'req-1', ...progress }} onRetry={onRetry} />);
    return onRetry;
  };

  test('accepted: the number read back, the estimate and the first step current', () => {
    view({ outcome: 'accepted', final: false, slow: false });
    expect(screen.getByText('We will call +380 50 123 45 67.')).toBeTruthy();
    expect(screen.getByText('Your phone should ring in about 20 seconds.')).toBeTruthy();
    expect(screen.getByText(en.outcomes.accepted).getAttribute('aria-current')).toBe('step');
  });

  test('ringing you: earlier steps done, this one current', () => {
    view({ outcome: 'ringing_you', final: false, slow: false });
    expect(screen.getByText(en.outcomes.accepted).className).toBe('done');
    expect(screen.getByText(en.outcomes.agent_ringing).className).toBe('done');
    expect(screen.getByText(en.outcomes.ringing_you).getAttribute('aria-current')).toBe('step');
    expect(screen.queryByRole('button', { name: en.tryAgain })).toBeNull();
  });

  test('slower than the estimate: says so and offers another try and the office number', () => {
    const onRetry = view({ outcome: 'agent_ringing', final: false, slow: true });
    expect(screen.getByText(en.slow)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en.tryAgain }));
    expect(onRetry).toHaveBeenCalledOnce();
    expect(screen.getByRole('link', { name: 'Call us: +380 44 111 22 33' })).toBeTruthy();
  });

  test('completed: every step done, a thank-you, no estimate', () => {
    view({ outcome: 'completed', final: true, slow: false });
    expect(screen.getByText(en.outcomes.completed)).toBeTruthy();
    expect(screen.queryByText(/should ring/)).toBeNull();
    expect(screen.getAllByRole('listitem').every((li) => li.className === 'done')).toBe(true);
  });

  test('unknown after a long wait: honest, with a way forward', () => {
    view({ outcome: 'unknown', final: true, slow: false });
    expect(screen.getByText(en.outcomes.unknown)).toBeTruthy();
    expect(screen.getByRole('button', { name: en.tryAgain })).toBeTruthy();
  });
});

describe('StatusNotice', () => {
  const config = testConfig();
  const status = { available: true, agentsOnline: 2, agentsFree: 1, openNow: true, nextOpenAt: null, source: 'live' as const, windows: [] };

  test('nothing to say when someone can answer or the status is unknown', () => {
    const { container } = render(<StatusNotice status={status} config={config} messages={en} />);
    expect(container.textContent).toBe('');
    cleanup();
    const unknown = render(<StatusNotice status={{ ...status, openNow: false, source: 'unknown' }} config={config} messages={en} />);
    expect(unknown.container.textContent).toBe('');
  });

  test('busy, and closed without a known opening time', () => {
    render(<StatusNotice status={{ ...status, available: false, agentsFree: 0 }} config={config} messages={en} />);
    expect(screen.getByText(en.busy)).toBeTruthy();
    cleanup();
    render(<StatusNotice status={{ ...status, available: false, openNow: false }} config={config} messages={en} />);
    expect(screen.getByText(en.closedNow)).toBeTruthy();
  });
});

describe('CountrySelect', () => {
  const select = (m: typeof en, value: string) => <CountrySelect lang={m === en ? 'en' : 'pl'} label="Country" names={m.countryNames} value={value} onChange={() => {}} />;
  const labels = () => screen.getAllByRole<HTMLOptionElement>('option').map((o) => o.textContent ?? '');
  const sortedIn = (lang: string, list: string[]) => list.every((label, i) => i === 0 || list[i - 1]!.localeCompare(label, lang) <= 0);

  // The first frame holds the chosen country alone; the rest follow a task later (act() runs that effect here).
  test("every country of the table with its calling code, named and sorted in the visitor's language, nothing worked out on the way", () => {
    const view = render(select(en, 'UA'));
    expect(labels()).toHaveLength(26);
    expect(labels()).toContain('Ukraine (+380)');
    expect(labels()).toContain('Poland (+48)');
    expect(sortedIn('en', labels())).toBe(true);
    expect((screen.getByRole('combobox') as HTMLSelectElement).value).toBe('UA');
    view.rerender(select(pl, 'UA'));
    expect(labels()).toContain('Niemcy (+49)');
    expect(sortedIn('pl', labels())).toBe(true);
  });

  test('a country the table does not know is offered while it is the value: by its code, then named in its sorted place', async () => {
    const view = render(select(en, 'UA'));
    const known = labels();
    view.rerender(select(en, 'IS'));
    expect((screen.getByRole('combobox') as HTMLSelectElement).value).toBe('IS');
    await waitFor(() => expect(labels()).toContain('Iceland'));
    expect(labels()).toHaveLength(known.length + 1);
    expect(sortedIn('en', labels())).toBe(true);
    expect((screen.getByRole('combobox') as HTMLSelectElement).value).toBe('IS');
    view.rerender(select(en, 'PL'));
    expect(labels()).toEqual(known);
  });
});
