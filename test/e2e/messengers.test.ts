// Messenger links ("Or write to us") in three engines, keyboard only and axe-clean: after the form
// while a call can happen; first (above the form) when the office is closed, when the relay cannot
// be reached, and after a missed call. Each link tells the page `dialback:messenger` (and dataLayer);
// a bad value is left out with one console warning. The host page keeps the links from navigating
// (no messenger to open here) after recording them: the widget's own click handler still runs.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSystem, type System } from '../support/system.ts';
import { startHostSite, type HostSite, type PageOptions } from '../support/host-site.ts';
import { deadUrl } from '../support/listen.ts';
import { hoursClosedNow } from '../support/office-hours.ts';
import { waitFor, type EnginePage } from '../support/engines/engine.ts';
import { axeViolations, errorRecorder, snapshot, until } from '../support/engines/in-page.ts';
import { engineNames } from '../support/engines/launch.ts';
import { opened, press, UNLIMITED } from '../support/engines/moves.ts';
import { agents, useEngine } from '../support/engines/use-engine.ts';

const desktop = { width: 1280, height: 800 };
const messengers = { telegram: '@acme_support', whatsapp: '+380 50 123 45 67', viber: '+380 (50) 123-45-67' };
const hrefs = ['https://t.me/acme_support', 'https://wa.me/380501234567', 'viber://chat?number=%2B380501234567'];

/** Records what the page hears (events, dataLayer, console warnings) and keeps messenger links from navigating. */
const recorder = `<script>window.__heard=[];window.__warnings=[];window.dataLayer=[];(function(){var w=console.warn;console.warn=function(){window.__warnings.push([].slice.call(arguments).join(' '));return w.apply(this,arguments)}})();addEventListener('dialback:messenger',function(e){window.__heard.push(e.detail.channel)});addEventListener('click',function(e){var a=e.composedPath()[0];if(a&&a.closest&&a.closest('.write a'))e.preventDefault()},true)</script>`;

let host: HostSite;
let open: System;
let closed: System;
let dead: string;
let pageCount = 0;

beforeAll(async () => {
  host = await startHostSite();
  // No re-dials: the missed call's view is final.
  open = await startSystem(
    { ALLOWED_ORIGINS: host.url, OUTCOME_POLL_MS: '250', REDIAL_ATTEMPTS: '0', ...UNLIMITED },
    { simulator: { agents: agents(4), timing: { agentAnswerMs: 300, visitorRingMs: 600, talkMs: 300 } } },
  );
  closed = await startSystem({ ALLOWED_ORIGINS: host.url, WORKING_HOURS: hoursClosedNow('Europe/Kyiv'), TIMEZONE: 'Europe/Kyiv', ...UNLIMITED });
  dead = await deadUrl();
});
afterAll(async () => {
  await open?.close();
  await closed?.close();
  await host?.close();
});

function page(system: System, options: Omit<PageOptions, 'relayUrl'> = {}): string {
  return host.page(`/messengers-${++pageCount}`, {
    relayUrl: system.relayUrl,
    ...options,
    data: { phone: '+380 44 111 22 33', ...messengers, ...options.data },
    head: errorRecorder + recorder,
  });
}

interface Links {
  hrefs: string[];
  /** The links come before the rest of the view (the notice, the form, the call's progress). */
  first: boolean;
  heading: string | null;
}

/** Runs in the page: the messenger block of the open dialog and where it stands. */
function links(): Links | null {
  const dialog = document.querySelector('dialback-widget')?.shadowRoot?.querySelector('[role=dialog]');
  const block = dialog?.querySelector('.write');
  const rest = dialog?.querySelector('form, .notice, .progress');
  if (!block || !rest) return null;
  return {
    hrefs: [...block.querySelectorAll('a')].map((a) => a.getAttribute('href')!),
    first: !!(block.compareDocumentPosition(rest) & Node.DOCUMENT_POSITION_FOLLOWING),
    heading: block.querySelector('p')?.textContent ?? null,
  };
}

/** Runs in the page: px from the heading's bottom to its first link's top (the block sits together). */
function headingToLinks(): number {
  const block = document.querySelector('dialback-widget')?.shadowRoot?.querySelector('[role=dialog] .write');
  const heading = block?.querySelector('p')?.getBoundingClientRect();
  const link = block?.querySelector('a')?.getBoundingClientRect();
  return heading && link ? Math.round(link.top - heading.bottom) : Number.NaN;
}

/** Runs in the page: px between the dialog's title row and the sentence under it. */
function titleToIntro(): number {
  const dialog = document.querySelector('dialback-widget')?.shadowRoot?.querySelector('[role=dialog]');
  const head = dialog?.querySelector('.head')?.getBoundingClientRect();
  const intro = dialog?.querySelector('.intro')?.getBoundingClientRect();
  return head && intro ? Math.round(intro.top - head.bottom) : Number.NaN;
}

const heard = () => {
  const w = window as unknown as { __heard: string[]; __warnings: string[]; dataLayer: Array<{ event: string; channel?: string }> };
  return { channels: w.__heard, dataLayer: w.dataLayer.filter((e) => e.event === 'dialback_messenger').map((e) => e.channel), warnings: w.__warnings };
};

async function waitForLinks(p: EnginePage, what: string, check: (l: Links) => boolean): Promise<Links> {
  const end = Date.now() + 10_000;
  for (;;) {
    const l = await p.run(links);
    if (l && check(l)) return l;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(l)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const name of engineNames) {
  describe(name, () => {
    const engine = useEngine(name);
    const withPage = (url: string, scenario: (p: EnginePage) => Promise<void>) => engine.withPage(url, desktop, scenario);

    /** Keyboard only: Tab to the launcher, Enter; the dialog opens with focus inside. */
    async function openByKeyboard(p: EnginePage) {
      await until(p, 'the launcher', (s) => s.launcher);
      let s = await p.run(snapshot);
      for (let i = 0; i < 5 && !s.activeIsLauncher; i++) s = await press(p, 'Tab', 'focus', () => true);
      expect(s.activeIsLauncher, `focus after Tab: ${s.active}`).toBe(true);
      return press(p, 'Enter', 'the dialog', (x) => x.open && x.activeInDialog);
    }

    test(
      'office open: "Or write to us" after the form; Tab reaches each link, Enter on one tells the page; axe-clean',
      () =>
        withPage(page(open), async (p) => {
          await openByKeyboard(p);
          await until(p, 'the form', opened);
          const l = await waitForLinks(p, 'the links', () => true);
          expect(l).toEqual({ hrefs, first: false, heading: 'Or write to us' });
          // The heading sits on its links (it stood 12 px above the links' 44 px line).
          expect(Math.abs(await p.run(headingToLinks))).toBeLessThanOrEqual(1);
          // And a title that wraps (as Ukrainian's does) keeps its distance from the sentence under it.
          expect(await p.run(titleToIntro)).toBe(6);
          expect(await axeViolations(p)).toEqual([]);
          // Tab from the phone field, staying in the dialog, to the WhatsApp link.
          let s = await p.run(snapshot);
          for (let i = 0; i < 8 && s.activeLabel !== 'WhatsApp'; i++) {
            s = await press(p, 'Tab', 'focus', (x) => x.active !== null);
            expect(s.activeInDialog, `Tab ${i + 1} went to ${s.active}`).toBe(true);
          }
          expect(s.activeLabel).toBe('WhatsApp');
          await p.press('Enter');
          const told = await waitFor(p, 'the page to hear the link', () => {
            const w = window as unknown as { __heard: string[] };
            return w.__heard.length > 0;
          }).then(() => p.run(heard));
          expect(told).toEqual({ channels: ['whatsapp'], dataLayer: ['whatsapp'], warnings: [] });
          expect((await p.run(snapshot)).errors).toEqual([]);
        }),
      40_000,
    );

    test(
      'office closed: the links come first, above the notice and the form; axe-clean',
      () =>
        withPage(page(closed), async (p) => {
          await openByKeyboard(p);
          await until(p, 'the closed notice', (s) => s.text.includes('We are closed now'));
          expect(await waitForLinks(p, 'the links first', (l) => l.first)).toEqual({ hrefs, first: true, heading: 'Or write to us' });
          expect(await axeViolations(p)).toEqual([]);
          expect((await p.run(snapshot)).errors).toEqual([]);
        }),
      40_000,
    );

    test(
      'relay unreachable: the links come first',
      () =>
        withPage(page(open, { data: { relay: dead } }), async (p) => {
          await openByKeyboard(p);
          await until(p, 'the form', opened);
          expect((await waitForLinks(p, 'the links first', (l) => l.first)).hrefs).toEqual(hrefs);
          expect(await axeViolations(p)).toEqual([]);
        }),
      40_000,
    );

    test(
      'a missed call: the links come first above the missed call, and stay first after "Try again"',
      () =>
        withPage(page(open), async (p) => {
          await openByKeyboard(p);
          await until(p, 'the form', opened);
          expect((await waitForLinks(p, 'the links', () => true)).first).toBe(false);
          // Numbers ending in 99 never answer: the call ends as missed.
          await p.type('050 123 45 99');
          await press(p, 'Enter', 'the accepted view', (s) => s.text.includes('We will call +380 50 123 45 99.'));
          await until(p, 'the missed call', (s) => s.text.includes('We could not reach you.'), 15_000);
          expect((await waitForLinks(p, 'the links first', (l) => l.first)).hrefs).toEqual(hrefs);
          expect(await axeViolations(p)).toEqual([]);
          // Tab to "Try again", Enter: the form is back, the links still first.
          let s = await p.run(snapshot);
          for (let i = 0; i < 8 && s.activeLabel !== 'Try again'; i++) s = await press(p, 'Tab', 'focus', (x) => x.activeInDialog);
          await press(p, 'Enter', 'the form again', opened);
          expect((await waitForLinks(p, 'the links first', (l) => l.first)).first).toBe(true);
          expect((await p.run(snapshot)).errors).toEqual([]);
        }),
      40_000,
    );

    test(
      'a bad value is left out with one console warning; the others stay',
      () =>
        withPage(page(open, { data: { telegram: 'a b', whatsapp: '050 123 45 67' } }), async (p) => {
          await openByKeyboard(p);
          await until(p, 'the form', opened);
          expect((await waitForLinks(p, 'the links', () => true)).hrefs).toEqual([hrefs[2]]);
          // Closed and opened again: still one warning each.
          await press(p, 'Escape', 'the dialog to close', (s) => !s.open);
          await press(p, 'Enter', 'the dialog', (s) => s.open);
          await waitForLinks(p, 'the links', () => true);
          expect((await p.run(heard)).warnings).toEqual(['[dialback] ignored data-telegram: a b', '[dialback] ignored data-whatsapp: 050 123 45 67']);
        }),
      40_000,
    );
  });
}
