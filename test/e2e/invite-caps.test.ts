// The invitation (data-invite) in Chromium, Firefox ESR and WebKit: each trigger, each cap, focus
// never moved by it, keyboard only, axe-clean. Three relays answer /api/status differently: someone
// free now, nobody free but times to book, and closed with nothing to book. The host page records
// the `dialback:invite` events; clocks are moved by rewriting the instants the widget stored.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHostSite, type HostSite, type PageOptions } from '../support/host-site.ts';
import type { EnginePage } from '../support/engines/engine.ts';
import { axeViolations, errorRecorder } from '../support/engines/in-page.ts';
import { inviteRecorder, navigate, newSession, settle, untilInvite, untilStarted, type InviteSnapshot } from '../support/engines/invite-page.ts';
import { engineNames } from '../support/engines/launch.ts';
import { useEngine } from '../support/engines/use-engine.ts';
import { UNLIMITED } from '../support/engines/moves.ts';
import { startSystem, type System } from '../support/system.ts';

const desktop = { width: 1280, height: 800 };
const nowText = 'Questions? We can call you back right now.';
const laterText = 'Questions? We are busy now: book a call for later.';
const day = 86_400_000;
const tall = '<div style="height:5000px">a long page</div>';

let host: HostSite;
/** Someone free now. */
let open: System;
/** Nobody free (every agent offline), open hours with times to book. */
let busy: System;
/** Closed, and the only open day is beyond what can be booked (SCHEDULE_MAX_DAYS=1). */
let shut: System;
let pageCount = 0;

/** WORKING_HOURS of one day three days from now: closed now, and nothing to book within one day. */
function hoursInThreeDays(): string {
  const names = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const dayName = names[new Date(Date.now() + 3 * day).getUTCDay()];
  return `${dayName} 10:00-11:00`;
}

beforeAll(async () => {
  host = await startHostSite();
  const env = { ALLOWED_ORIGINS: host.url, ...UNLIMITED };
  const agents = (online: boolean) => Array.from({ length: 3 }, (_, i) => ({ login: `manager${i + 1}`, number: `38044111000${i + 1}`, online }));
  open = await startSystem(env, { simulator: { agents: agents(true), timing: { agentAnswerMs: 10, visitorRingMs: 10, talkMs: 10 } } });
  busy = await startSystem(env, { simulator: { agents: agents(false) } });
  shut = await startSystem({ ...env, WORKING_HOURS: hoursInThreeDays(), TIMEZONE: 'UTC', SCHEDULE_MAX_DAYS: '1' }, { simulator: { agents: agents(true) } });
}, 30_000);
afterAll(async () => {
  await Promise.all([open?.close(), busy?.close(), shut?.close()]);
  await host?.close();
});

/** A host page with the widget; `data` are the script tag's attributes (besides lang en, country UA). */
function invitePage(data: Record<string, string>, options: Omit<PageOptions, 'relayUrl' | 'data'> & { relay?: System; path?: string } = {}): string {
  const { relay = open, path = `/page-${++pageCount}`, ...rest } = options;
  return host.page(path, { ...rest, relayUrl: relay.relayUrl, data, head: errorRecorder + inviteRecorder + (rest.head ?? '') });
}

test('the closed relay has nothing to book', async () => {
  const status = (await (await fetch(`${shut.relayUrl}/api/status`, { headers: { origin: host.url } })).json()) as { openNow: boolean; windows: unknown[] };
  expect(status).toMatchObject({ openNow: false, windows: [] });
});

/**
 * Focus on the page's own button, as a visitor puts it there before the step under test. WebKitGTK
 * at times leaves a focus() made right after a page load unapplied: <body> is the active element in
 * the next task, before any key was pressed (seen in 1 of 5 runs of the WebKit tests, with no widget
 * code run in between). So it is made again until a later task finds it held.
 */
async function focusHostButton(page: EnginePage) {
  const end = Date.now() + 5_000;
  for (;;) {
    await page.run(() => document.getElementById('host-button')!.focus());
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (await page.run(() => document.activeElement?.id === 'host-button')) return;
    if (Date.now() > end) throw new Error("the page's own button would not keep focus");
  }
}

const shown = (s: InviteSnapshot) => s.text !== null;
/** Stays without a bubble for `ms` (the idle import, the trigger's own wait and the status request are done by then). */
async function expectNoInvite(page: EnginePage, why: string, ms = 1500) {
  await settle(page, ms);
  const s = await untilInvite(page, why, () => true);
  expect(s.text, why).toBeNull();
  expect(s.events, why).toEqual([]);
  return s;
}

for (const name of engineNames) {
  describe(name, () => {
    const engine = useEngine(name);

    /** A fresh tab whose storage for the host site is empty, then `url` in it. */
    const withPage = (url: string, scenario: (page: EnginePage) => Promise<void>) =>
      engine.withPage(host.page('/blank', { relayUrl: open.relayUrl, noScript: true }), desktop, async (page) => {
        await page.run(() => {
          localStorage.clear();
          sessionStorage.clear();
        });
        await navigate(page, url);
        await scenario(page);
      });

    test(
      'time:1: a polite bubble beside the launcher, focus left where it was; Tab reaches it, Enter opens the dialog; axe-clean',
      () =>
        withPage(invitePage({ invite: 'time:1' }), async (page) => {
          await focusHostButton(page);
          let s = await untilInvite(page, 'the invitation', shown);
          expect(s.text).toBe(nowText);
          expect(s.live).toBe('polite');
          expect(s.events).toEqual(['time']);
          expect(s.pushed).toEqual([{ event: 'dialback_invite', trigger: 'time' }]);
          expect(s.active).toBe('host-button');
          // Small, just above the launcher, right-aligned with it: not over the page's content.
          const [bubble, launcher] = [s.bubble!, s.launcher!];
          expect(bubble.width).toBeLessThanOrEqual(302);
          expect(bubble.height).toBeLessThan(100);
          expect(bubble.y + bubble.height).toBeLessThanOrEqual(launcher.y);
          expect(launcher.y - (bubble.y + bubble.height)).toBeLessThan(20);
          expect(Math.abs(bubble.x + bubble.width - (launcher.x + launcher.width))).toBeLessThan(2);
          // axe once the fade-in is over (mid-fade the text has less contrast).
          await page.run(async () => {
            const el = document.querySelector('dialback-widget')!.shadowRoot!.querySelector('.invite')!;
            for (let i = 0; i < 100 && getComputedStyle(el).opacity !== '1'; i++) await new Promise((r) => setTimeout(r, 20));
          });
          expect(await axeViolations(page)).toEqual([]);
          // The fade runs only for visitors who have not asked for reduced motion.
          const motion = await page.run(() => {
            const sheets = document.querySelector('dialback-widget')!.shadowRoot!.adoptedStyleSheets;
            const rules = sheets.flatMap((sheet) => [...sheet.cssRules]);
            const animated = (list: CSSRule[]) => list.some((r) => r instanceof CSSStyleRule && r.selectorText === '.invite' && r.style.animationName !== '');
            const media = rules.filter((r): r is CSSMediaRule => r instanceof CSSMediaRule && animated([...r.cssRules]));
            return { outside: animated(rules), media: media.map((r) => r.conditionText.replace(/\s/g, '')) };
          });
          expect(motion).toEqual({ outside: false, media: ['(prefers-reduced-motion:no-preference)'] });
          // Keyboard only: Tab from the page's button reaches the bubble, Enter opens the dialog.
          await page.press('Tab');
          s = await untilInvite(page, 'focus on the bubble', (x) => x.active === nowText);
          await page.press('Enter');
          s = await untilInvite(page, 'the dialog with focus in it, the bubble gone', (x) => x.dialogOpen && x.active === 'db-phone' && x.text === null);
          await page.press('Escape');
          s = await untilInvite(page, 'the dialog closed, focus on the launcher', (x) => !x.dialogOpen && x.active === 'Call me back');
          expect(s.errors).toEqual([]);
        }),
      40_000,
    );

    test(
      'Esc and the close button close it; once per session; not again within data-invite-days',
      () =>
        withPage(invitePage({ invite: 'time:0' }), async (page) => {
          let s = await untilInvite(page, 'the invitation', shown);
          // Esc (focus in the page) closes it, focus untouched.
          await focusHostButton(page);
          await page.press('Escape');
          s = await untilInvite(page, 'the bubble closed by Esc', (x) => x.text === null);
          expect(s.active).toBe('host-button');
          // Another page of the session: not again.
          await navigate(page, invitePage({ invite: 'time:0' }));
          await expectNoInvite(page, 'a second page of the same session');
          // A new session on the next day: data-invite-days=2 still holds it back; 2 days later it shows.
          const url = invitePage({ invite: 'time:0', 'invite-days': '2' });
          await newSession(page, url, { invited: day + 60_000 });
          await expectNoInvite(page, 'a day later with data-invite-days=2');
          await newSession(page, url, { invited: 2 * day + 60_000 });
          s = await untilInvite(page, 'the invitation two days later', shown);
          // Its close button, with the keyboard: Tab, Tab, Enter; focus goes on to the launcher.
          await focusHostButton(page);
          await page.press('Tab');
          await page.press('Tab');
          s = await untilInvite(page, 'focus on the close button', (x) => x.active === 'Close');
          await page.press('Enter');
          s = await untilInvite(page, 'the bubble closed by its button', (x) => x.text === null);
          expect(s.active).toBe('Call me back');
          expect(s.dialogOpen).toBe(false);
          expect(s.errors).toEqual([]);
        }),
      40_000,
    );

    test(
      'not for 30 days after the visitor asked for a call',
      () =>
        withPage(invitePage({ invite: 'time:60' }), async (page) => {
          // The visitor asks for a call through the dialog (before any trigger).
          await page.run(() => (window as unknown as { dialback(c: string): void }).dialback('open'));
          await untilInvite(page, 'the dialog', (x) => x.dialogOpen && x.active === 'db-phone');
          await page.type('0501234560');
          await page.press('Enter');
          await page.run(async () => {
            for (let i = 0; i < 200 && !localStorage.getItem('dialback:asked'); i++) await new Promise((r) => setTimeout(r, 50));
          });
          const url = invitePage({ invite: 'time:0' });
          await newSession(page, url, {});
          await expectNoInvite(page, 'a new session after a request');
          await newSession(page, url, { asked: 29 * day });
          await expectNoInvite(page, '29 days after a request');
          await newSession(page, url, { asked: 30 * day + 60_000 });
          await untilInvite(page, 'the invitation 30 days after a request', shown);
        }),
      40_000,
    );

    test('not while the visitor types in a field of the page (shown when they leave it); not on excluded paths; one warning for a bad entry', async () => {
      const warnings = `<script>window.__warnings=[];console.warn=function(){window.__warnings.push([].join.call(arguments,' '))}</script>`;
      const field = '<label>Your name <input id="name"></label><label>Notes <span id="notes" contenteditable="true">x</span></label>';
      await withPage(invitePage({ invite: 'hover, scroll:500' }, { head: warnings, body: field }), async (page) => {
        // Typing in the page's field (a real click, real keys) when the invitation is asked for.
        const [x, y] = await page.run(() => {
          const input = document.getElementById('name')!;
          input.scrollIntoView({ block: 'center' });
          const r = input.getBoundingClientRect();
          return [r.x + r.width / 2, r.y + r.height / 2];
        });
        await page.clickAt(x, y);
        await page.type('Olena');
        expect(await page.run(() => document.activeElement?.id)).toBe('name');
        await page.run(() => (window as unknown as { dialback(c: string): void }).dialback('invite'));
        await expectNoInvite(page, 'typing in the page', 1000);
        // On to an editable element of the page (contenteditable): still typing there.
        await page.run(() => document.getElementById('notes')!.focus());
        await expectNoInvite(page, 'in a contenteditable', 500);
        // Out of the fields: now it shows, and focus stays where the visitor put it.
        await focusHostButton(page);
        const s = await untilInvite(page, 'the invitation after the field', shown);
        expect(s.active).toBe('host-button');
        expect(s.events).toEqual(['command']);
        expect(await page.run(() => (window as unknown as { __warnings: string[] }).__warnings)).toEqual(['[dialback] data-invite: ignored hover, scroll:500']);
      });
      await withPage(invitePage({ invite: 'time:0 pages:1', 'invite-exclude': '/cart, /checkout' }, { path: '/checkout/step-1' }), async (page) => {
        await expectNoInvite(page, 'on /checkout/step-1');
        await page.run(() => (window as unknown as { dialback(c: string): void }).dialback('invite'));
        await expectNoInvite(page, 'dialback("invite") on /checkout/step-1', 800);
      });
    }, 40_000);

    test('what the relay says: nobody free but times to book says so; closed with nothing to book shows nothing', async () => {
      await withPage(invitePage({ invite: 'time:0', 'invite-text': 'Talk to a plumber now?' }, { relay: busy }), async (page) => {
        const s = await untilInvite(page, 'the invitation', shown);
        expect(s.text).toBe(laterText);
      });
      await withPage(invitePage({ invite: 'time:0', 'invite-text': 'Talk to a plumber now?' }), async (page) => {
        expect((await untilInvite(page, 'the invitation', shown)).text).toBe('Talk to a plumber now?');
      });
      await withPage(invitePage({ invite: 'time:0' }, { relay: shut }), async (page) => {
        await expectNoInvite(page, 'closed, nothing to book');
        await page.run(() => (window as unknown as { dialback(c: string): void }).dialback('invite'));
        await expectNoInvite(page, 'dialback("invite") when closed with nothing to book', 800);
      });
    }, 40_000);

    test(
      'exit: the pointer leaving through the top; on touch, a fast scroll back up, or coming back to the tab after 5 s',
      () =>
        withPage(invitePage({ invite: 'exit' }, { body: tall }), async (page) => {
          const leave = (clientY: number) =>
            page.run((y: number) => document.documentElement.dispatchEvent(new MouseEvent('mouseout', { bubbles: true, clientY: y, relatedTarget: null })), clientY);
          // Once the triggers listen: leaving through the side does nothing, through the top shows it.
          await untilStarted(page);
          await leave(400);
          await expectNoInvite(page, 'the pointer leaving through the side', 500);
          await leave(-1);
          let s = await untilInvite(page, 'the invitation on leaving through the top', shown);
          expect(s.events).toEqual(['exit']);

          // Touch: a new session, a touch, then a fast scroll back up.
          const url = invitePage({ invite: 'exit' }, { body: tall });
          const touch = () => page.run(() => window.dispatchEvent(new PointerEvent('pointerdown', { pointerType: 'touch', bubbles: true })));
          await newSession(page, url, 'forget');
          await untilStarted(page);
          await touch();
          await leave(-1);
          await expectNoInvite(page, 'a mouse rule on a touch screen', 300);
          await page.run(async () => {
            // The page's clock stands still meanwhile: a slow renderer (WebKit under Xvfb draws a
            // frame in ~0.5 s) spaces the scroll events out as no phone does.
            const now = Date.now;
            const t = now();
            Date.now = () => t;
            // Each position seen by the page (a scroll event), as a flick produces them.
            const scrolled = (y: number) =>
              new Promise((r) => {
                addEventListener('scroll', r, { once: true });
                scrollTo(0, y);
              });
            await scrolled(3000);
            await scrolled(2500);
            Date.now = now;
          });
          s = await untilInvite(page, 'the invitation on a fast scroll up', shown);
          expect(s.events).toEqual(['exit']);

          // Touch: away from the tab for 6 s (the page's clock moved on), back: shown.
          await newSession(page, url, 'forget');
          await untilStarted(page);
          await touch();
          const away = (ms: number) =>
            page.run((forMs: number) => {
              const now = Date.now;
              Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
              document.dispatchEvent(new Event('visibilitychange'));
              Date.now = () => now() + forMs;
              Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
              document.dispatchEvent(new Event('visibilitychange'));
            }, ms);
          await away(3000);
          await expectNoInvite(page, 'back after 3 s', 300);
          await away(6000);
          s = await untilInvite(page, 'the invitation on coming back after 6 s', shown);
          expect(s.events).toEqual(['exit']);
          expect(s.errors).toEqual([]);
        }),
      40_000,
    );

    test('scroll:50, pages:2, and dialback("invite") on a page without data-invite', async () => {
      await withPage(invitePage({ invite: 'scroll:50' }, { body: tall }), async (page) => {
        await settle(page, 800);
        // The bottom of the window at about 40 % of the page, then at 60 %.
        await page.run(() => scrollTo(0, document.documentElement.scrollHeight * 0.4 - innerHeight));
        await expectNoInvite(page, 'at 40 %', 500);
        await page.run(() => scrollTo(0, document.documentElement.scrollHeight * 0.6 - innerHeight));
        expect((await untilInvite(page, 'the invitation at 60 %', shown)).events).toEqual(['scroll']);
      });
      await withPage(invitePage({ invite: 'pages:2' }), async (page) => {
        await expectNoInvite(page, 'the first page');
        await navigate(page, invitePage({ invite: 'pages:2' }));
        expect((await untilInvite(page, 'the invitation on the second page', shown)).events).toEqual(['pages']);
      });
      await withPage(invitePage({}), async (page) => {
        await expectNoInvite(page, 'no data-invite', 800);
        const loaded = await page.run(() => performance.getEntriesByType('resource').some((e) => /\/chunks\/(invite|show)-/.test(e.name)));
        expect(loaded, 'an invitation chunk without data-invite').toBe(false);
        await page.run(() => (window as unknown as { dialback(c: string): void }).dialback('invite'));
        const s = await untilInvite(page, 'the invitation on demand', shown);
        expect(s.events).toEqual(['command']);
        expect(s.active).not.toBe(nowText);
        await page.run(() => document.querySelector('dialback-widget')!.shadowRoot!.querySelector<HTMLButtonElement>('.invite button + button')!.click());
        await untilInvite(page, 'the bubble closed', (x) => x.text === null);
        await page.run(() => (window as unknown as { dialback(c: string): void }).dialback('invite'));
        await settle(page, 800);
        const again = await untilInvite(page, 'the state', () => true);
        expect(again.text, 'a second dialback("invite") in the session').toBeNull();
        expect(again.events).toEqual(['command']);
      });
    }, 40_000);
  });
}
