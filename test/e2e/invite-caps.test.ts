// The invitation (data-invite) in Chromium, Firefox ESR and WebKit, its bubble and its caps: a polite
// bubble beside the launcher that leaves focus where it was, reached and opened by keyboard, axe-clean;
// closed by Esc or its button; once per session, not again within data-invite-days, not for 30 days
// after a request. Clocks are moved by rewriting the instants the widget stored.
import { describe, expect, test } from 'vitest';
import { axeViolations } from '../support/engines/in-page.ts';
import { navigate, newSession, untilInvite } from '../support/engines/invite-page.ts';
import { day, expectNoInvite, focusHostButton, invitePage, nowText, shown, useInviteEngine, useInviteSuite } from '../support/engines/invite-suite.ts';
import { engineNames } from '../support/engines/launch.ts';

const suite = useInviteSuite(['open']);

for (const name of engineNames) {
  describe(name, () => {
    const withPage = useInviteEngine(suite, name);

    test(
      'time:1: a polite bubble beside the launcher, focus left where it was; Tab reaches it, Enter opens the dialog; axe-clean',
      () =>
        withPage(invitePage(suite, { invite: 'time:1' }), async (page) => {
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
        withPage(invitePage(suite, { invite: 'time:0' }), async (page) => {
          let s = await untilInvite(page, 'the invitation', shown);
          // Esc (focus in the page) closes it, focus untouched.
          await focusHostButton(page);
          await page.press('Escape');
          s = await untilInvite(page, 'the bubble closed by Esc', (x) => x.text === null);
          expect(s.active).toBe('host-button');
          // Another page of the session: not again.
          await navigate(page, invitePage(suite, { invite: 'time:0' }));
          await expectNoInvite(page, 'a second page of the same session');
          // A new session on the next day: data-invite-days=2 still holds it back; 2 days later it shows.
          const url = invitePage(suite, { invite: 'time:0', 'invite-days': '2' });
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
        withPage(invitePage(suite, { invite: 'time:60' }), async (page) => {
          // The visitor asks for a call through the dialog (before any trigger).
          await page.run(() => (window as unknown as { dialback(c: string): void }).dialback('open'));
          await untilInvite(page, 'the dialog', (x) => x.dialogOpen && x.active === 'db-phone');
          await page.type('0501234560');
          await page.press('Enter');
          await page.run(async () => {
            for (let i = 0; i < 200 && !localStorage.getItem('dialback:asked'); i++) await new Promise((r) => setTimeout(r, 50));
          });
          const url = invitePage(suite, { invite: 'time:0' });
          await newSession(page, url, {});
          await expectNoInvite(page, 'a new session after a request');
          await newSession(page, url, { asked: 29 * day });
          await expectNoInvite(page, '29 days after a request');
          await newSession(page, url, { asked: 30 * day + 60_000 });
          await untilInvite(page, 'the invitation 30 days after a request', shown);
        }),
      40_000,
    );
  });
}
