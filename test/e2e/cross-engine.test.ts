// The widget in three engines: Chromium (playwright-core), Firefox ESR (puppeteer-core over WebDriver
// BiDi) and WebKitGTK (selenium-webdriver and WebKitWebDriver under Xvfb), each scenario written
// once against the adapter in engine.ts. The host page is another origin than the relay and carries
// demo/hostile.css. One browser per engine, started when its block begins and quit when it ends, so
// only one runs at a time.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSystem, type System } from '../support/system.ts';
import { startHostSite, type HostSite, type PageOptions } from '../support/host-site.ts';
import { hostileKinds, worstThree } from '../support/engines/hostile-pages.ts';
import { axeViolations, errorRecorder, requestHolder, snapshot, until, waitFor } from '../support/engines/in-page.ts';
import { engineNames } from '../support/engines/launch.ts';
import { accepted, click, opened, press, UNLIMITED } from '../support/engines/moves.ts';
import { useEngine } from '../support/engines/use-engine.ts';

const desktop = { width: 1280, height: 800 };
const phone = { width: 375, height: 667 };
const office = '+380 44 111 22 33';

let host: HostSite;
let system: System;
let pageCount = 0;

beforeAll(async () => {
  host = await startHostSite();
  // Calls long enough to watch every step, short enough for the suite; agents enough that the calls
  // earlier scenarios left running (they go on after the dialog closes) never leave none free.
  const agents = Array.from({ length: 8 }, (_, i) => ({ login: `manager${i + 1}`, number: `38044111000${i + 1}`, online: true }));
  // No re-dials: the missed call's view is final (with one, the widget shows the re-dial to come).
  system = await startSystem(
    { ALLOWED_ORIGINS: host.url, OUTCOME_POLL_MS: '250', REDIAL_ATTEMPTS: '0', ...UNLIMITED },
    { simulator: { agents, timing: { agentAnswerMs: 1000, visitorRingMs: 1500, talkMs: 1500 } } },
  );
});
afterAll(async () => {
  await system?.close();
  await host?.close();
});

function hostPage(options: Omit<PageOptions, 'relayUrl'> = {}): string {
  return host.page(`/page-${++pageCount}`, { relayUrl: system.relayUrl, ...options, data: { phone: office, ...options.data }, head: errorRecorder + (options.head ?? '') });
}

for (const name of engineNames) {
  describe(name, () => {
    const { withPage } = useEngine(name);

    test(
      'mouse: launcher, number, submit, then the real steps of the call to its end; no console error',
      () =>
        withPage(hostPage(), desktop, async (page) => {
          const closed = await until(page, 'the launcher', (s) => s.launcher);
          await click(page, closed.launcher, 'the launcher');
          const form = await until(page, 'the dialog with the phone field', opened);
          await click(page, form.phone, 'the phone field');
          await page.type('050 123 45 01');
          await click(page, form.submit, 'the submit button');
          await until(page, 'the accepted view', accepted('50 123 45 01'));
          const seen = new Set<string>();
          await until(
            page,
            'the call to end',
            (s) => {
              if (s.step) seen.add(s.step);
              return s.text.includes('Call finished. Thank you!');
            },
            15_000,
          );
          // The steps the relay reported, not a countdown: the first, then at least one the call reached
          // (the widget polls at the relay's pace, so a short step can pass between two polls).
          expect([...seen][0]).toBe('Request received');
          expect(
            [...seen].some((step) => ['Connecting an agent', 'Your phone is ringing', 'You are connected'].includes(step)),
            [...seen].join(' → '),
          ).toBe(true);
          expect((await page.run(snapshot)).errors).toEqual([]);
        }),
      40_000,
    );

    test(
      'keyboard only at 375×667: Tab to the launcher, Enter, type, Enter; Esc closes every state and focus returns to the launcher',
      () =>
        withPage(hostPage({ head: requestHolder }), phone, async (page) => {
          await until(page, 'the launcher', (s) => s.launcher);
          // Tab from the top of the page until the launcher has focus (the page has one button before it).
          let s = await page.run(snapshot);
          for (let i = 0; i < 5 && !s.activeIsLauncher; i++) {
            await page.press('Tab');
            s = await page.run(snapshot);
          }
          expect(s.activeIsLauncher, `focus after Tab: ${s.active}`).toBe(true);

          const reopen = () => press(page, 'Enter', 'the dialog', (x) => x.open && x.activeInDialog);
          const pressEscape = async (state: string) => {
            const after = await press(page, 'Escape', `closing from ${state}`, (x) => !x.open);
            expect(after.activeIsLauncher, `focus after Esc from ${state}: ${after.active}`).toBe(true);
          };

          // The form: focus in the phone field, and Tab never leaves the dialog.
          s = await reopen();
          expect(s.active).toBe('db-phone');
          for (let i = 0; i < 4; i++) {
            s = await press(page, 'Tab', 'focus', (x) => x.active !== null);
            expect(s.activeInDialog, `Tab ${i + 1} went to ${s.active}`).toBe(true);
          }
          s = await press(page, 'Shift+Tab', 'focus', (x) => x.active !== null);
          expect(s.activeInDialog, `Shift+Tab went to ${s.active}`).toBe(true);
          await pressEscape('the form');

          // A field error: Enter with nothing typed.
          s = await reopen();
          s = await press(page, 'Enter', 'the field error', (x) => x.text.includes('This does not look like a valid phone number'));
          expect(s.active).toBe('db-phone');
          await pressEscape('the field error');

          // Sending (the page holds the request): focus on the status, not lost to <body>.
          await reopen();
          await page.type('0501234502');
          s = await press(page, 'Enter', 'the sending view', (x) => x.text.includes('Sending your request…'));
          s = await until(page, 'focus on the sending status', (x) => x.activeInDialog);
          expect(s.active).toBe('sending');
          await pressEscape('sending');

          // Accepted: the request goes on while the dialog is closed; reopened, focus is on the read-back.
          s = await reopen();
          await page.run(() => (window as unknown as { __release(): void }).__release());
          s = await until(page, 'the accepted view with focus inside', (x) => accepted('50 123 45 02')(x) && x.activeInDialog);
          expect(s.active).toBe('readback');
          await pressEscape('accepted');
          expect(s.errors).toEqual([]);
        }),
      40_000,
    );

    test(
      'keyboard only: "Call me later", a day and a time, booked, then cancelled; axe-clean',
      () =>
        withPage(hostPage(), desktop, async (page) => {
          await until(page, 'the launcher', (s) => s.launcher);
          let s = await page.run(snapshot);
          for (let i = 0; i < 5 && !s.activeIsLauncher; i++) s = await press(page, 'Tab', 'focus', (x) => x.active !== null);
          expect(s.activeIsLauncher, `focus after Tab: ${s.active}`).toBe(true);
          await press(page, 'Enter', 'the dialog with focus in the phone field', (x) => x.open && x.active === 'db-phone');
          // The relay offers its open windows (always open here: the next seven days).
          await waitFor(page, 'the "Call me later" button, shown once the status came', () => {
            const button = document.querySelector('dialback-widget')!.shadowRoot!.querySelector('.link');
            return button?.textContent === 'Call me later' && getComputedStyle(button).visibility === 'visible';
          });
          await page.type('0501234503');
          await press(page, 'Tab', 'focus on "Call me later"', (x) => x.activeLabel === 'Call me later');
          // The picker comes as a chunk of its own, and takes focus: "at a time I choose" is chosen.
          s = await press(page, 'Enter', 'the picker with focus on its choice', (x) => x.activeLabel === 'At a time I choose');
          const dayNames = await page.run(() =>
            [...document.querySelector('dialback-widget')!.shadowRoot!.querySelectorAll<HTMLInputElement>('input[name=db-day]')].map((r) => r.labels![0]!.textContent),
          );
          expect(dayNames.length, dayNames.join(', ')).toBeGreaterThanOrEqual(7);
          // Tab to the days (the first is chosen), ArrowRight to the next; Tab to the times.
          await press(page, 'Tab', 'focus on the first day', (x) => x.activeLabel === dayNames[0]);
          await press(page, 'ArrowRight', 'the next day', (x) => x.activeLabel === dayNames[1]);
          await press(page, 'Tab', 'focus on the times', (x) => x.active === 'db-time');
          expect(await axeViolations(page), 'the picker').toEqual([]);
          const time = await page.run(() => document.querySelector('dialback-widget')!.shadowRoot!.querySelector<HTMLSelectElement>('#db-time')!.selectedOptions[0]!.textContent!);
          await press(page, 'Tab', 'focus on the submit button', (x) => x.activeLabel === 'Call me back');
          // Booked: the time read back (the day in words), the first step "booked", focus on it.
          s = await press(page, 'Enter', 'the booked view', (x) => x.text.includes(`We will call +380 50 123 45 03 `) && x.activeInDialog);
          expect(s.text).toContain(`, ${time}.`);
          expect(s.step).toBe('Call booked');
          expect(s.active).toBe('readback');
          expect(await axeViolations(page), 'booked').toEqual([]);
          // Tab to "Cancel the call", Enter: cancelled at the relay, said, focus kept in the dialog.
          await press(page, 'Tab', 'focus on "Cancel the call"', (x) => x.activeLabel === 'Cancel the call');
          s = await press(page, 'Enter', 'the cancelled view', (x) => x.text.includes('Call cancelled') && x.activeInDialog);
          expect(s.active).toBe('readback');
          expect(s.text).not.toContain('Cancel the call');
          expect(await axeViolations(page), 'cancelled').toEqual([]);
          expect(s.errors).toEqual([]);
        }),
      40_000,
    );

    test(
      'axe-core: 0 violations in each state (form, field error, sending, accepted, missed)',
      () =>
        withPage(hostPage({ head: requestHolder }), desktop, async (page) => {
          const states: Record<string, string[]> = {};
          let s = await until(page, 'the launcher', (x) => x.launcher);
          await click(page, s.launcher, 'the launcher');
          s = await until(page, 'the form', opened);
          states.form = await axeViolations(page);
          await click(page, s.submit, 'the submit button');
          s = await until(page, 'the field error', (x) => x.text.includes('This does not look like a valid phone number'));
          states['field error'] = await axeViolations(page);
          await click(page, s.phone, 'the phone field');
          // Numbers ending in 99 never answer: the call ends as missed.
          await page.type('050 123 45 99');
          await click(page, s.submit, 'the submit button');
          await until(page, 'the sending view', (x) => x.text.includes('Sending your request…'));
          states.sending = await axeViolations(page);
          await page.run(() => (window as unknown as { __release(): void }).__release());
          await until(page, 'the accepted view', accepted('50 123 45 99'));
          states.accepted = await axeViolations(page);
          await until(page, 'the missed call', (x) => x.text.includes('We could not reach you.'), 15_000);
          states.missed = await axeViolations(page);
          expect(states).toEqual({ form: [], 'field error': [], sending: [], accepted: [], missed: [] });
          expect((await page.run(snapshot)).errors).toEqual([]);
        }),
      40_000,
    );

    test(
      '375×667: a bottom sheet across the full width that stays above the on-screen keyboard; the select drawn the same',
      () =>
        withPage(hostPage(), phone, async (page) => {
          let s = await until(page, 'the launcher', (x) => x.launcher);
          expect(s.viewport).toEqual([375, 667]);
          await click(page, s.launcher, 'the launcher');
          s = await until(page, 'the dialog', opened);
          // The country select is drawn by us, not by the engine (WebKit's native one has a gradient):
          // no native appearance, our triangle, and the phone field's height.
          const select = await page.run(() => {
            const root = document.querySelector('dialback-widget')!.shadowRoot!;
            const el = root.querySelector('select')!;
            const style = getComputedStyle(el);
            return { appearance: style.appearance, image: style.backgroundImage.split('(')[0], height: Math.round(el.getBoundingClientRect().height) };
          });
          expect(select).toEqual({ appearance: 'none', image: 'conic-gradient', height: Math.round(s.phone!.height) });
          const sheet = s.dialog!;
          const [width, height] = s.client;
          expect([sheet.x, sheet.width, Math.round(sheet.y + sheet.height)]).toEqual([0, width, height]);
          // A 300 px keyboard that shrinks only the visual viewport, as on iOS.
          await page.run(() => {
            const vv = window.visualViewport!;
            Object.defineProperty(vv, 'height', { configurable: true, get: () => innerHeight - 300 });
            vv.dispatchEvent(new Event('resize'));
          });
          s = await until(page, 'the sheet to move above the keyboard', (x) => x.dialog && Math.round(x.dialog.y + x.dialog.height) === height - 300);
          expect(s.dialog!.y).toBeGreaterThanOrEqual(0);
          expect(s.phone!.y + s.phone!.height).toBeLessThanOrEqual(height - 300);
          expect(s.errors).toEqual([]);
        }),
      30_000,
    );

    const kinds = name === 'chromium' ? hostileKinds : hostileKinds.filter((k) => worstThree.has(k.name));
    for (const [i, kind] of kinds.entries()) {
      test(
        `hostile host page: ${kind.name}`,
        () =>
          withPage(hostPage({ head: kind.head ?? '', ...(kind.csp ? { csp: kind.csp(system.relayUrl) } : {}) }), desktop, async (page) => {
            let s = await until(page, 'the launcher', (x) => x.launcher);
            await click(page, s.launcher, 'the launcher');
            s = await until(page, 'the dialog', opened);
            await click(page, s.phone, 'the phone field');
            const digits = `50 123 46 ${String(10 + i)}`;
            await page.type('0' + digits.replace(/ /g, ''));
            await click(page, s.submit, 'the submit button');
            if (kind.works) {
              await until(page, 'the accepted view', accepted(digits));
            } else {
              s = await until(page, 'the sentence', (x) => x.text.includes('We cannot reach the callback service.'));
              expect(s.tel).toBe('tel:+380441112233');
              // The launcher keeps working: it closes the dialog and opens it again.
              await click(page, s.launcher, 'the launcher');
              s = await until(page, 'the dialog to close', (x) => !x.open);
              await click(page, s.launcher, 'the launcher');
              await until(page, 'the dialog to open again', opened);
            }
            expect((await page.run(snapshot)).errors).toEqual([]);
          }),
        30_000,
      );
    }
  });
}
