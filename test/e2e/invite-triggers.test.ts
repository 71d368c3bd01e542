// What makes the invitation (data-invite) appear, in Chromium, Firefox ESR and WebKit: exit intent
// (the pointer leaving through the top; on touch, a fast scroll back up or coming back to the tab),
// scroll:N, pages:N, and dialback('invite') on a page without data-invite. The host page records the
// `dialback:invite` events; the page's clock is moved where a trigger counts time.
import { describe, expect, test } from 'vitest';
import { navigate, newSession, settle, untilInvite, untilStarted } from '../support/engines/invite-page.ts';
import { askForInvite, expectNoInvite, invitePage, nowText, shown, tall, useInviteEngine, useInviteSuite } from '../support/engines/invite-suite.ts';
import { engineNames } from '../support/engines/launch.ts';

const suite = useInviteSuite(['open']);

for (const name of engineNames) {
  describe(name, () => {
    const withPage = useInviteEngine(suite, name);

    test(
      'exit: the pointer leaving through the top; on touch, a fast scroll back up, or coming back to the tab after 5 s',
      () =>
        withPage(invitePage(suite, { invite: 'exit' }, { body: tall }), async (page) => {
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
          const url = invitePage(suite, { invite: 'exit' }, { body: tall });
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
      await withPage(invitePage(suite, { invite: 'scroll:50' }, { body: tall }), async (page) => {
        await settle(page, 800);
        // The bottom of the window at about 40 % of the page, then at 60 %.
        await page.run(() => scrollTo(0, document.documentElement.scrollHeight * 0.4 - innerHeight));
        await expectNoInvite(page, 'at 40 %', 500);
        await page.run(() => scrollTo(0, document.documentElement.scrollHeight * 0.6 - innerHeight));
        expect((await untilInvite(page, 'the invitation at 60 %', shown)).events).toEqual(['scroll']);
      });
      await withPage(invitePage(suite, { invite: 'pages:2' }), async (page) => {
        await expectNoInvite(page, 'the first page');
        await navigate(page, invitePage(suite, { invite: 'pages:2' }));
        expect((await untilInvite(page, 'the invitation on the second page', shown)).events).toEqual(['pages']);
      });
      await withPage(invitePage(suite, {}), async (page) => {
        await expectNoInvite(page, 'no data-invite', 800);
        const loaded = await page.run(() => performance.getEntriesByType('resource').some((e) => /\/chunks\/(invite|show)-/.test(e.name)));
        expect(loaded, 'an invitation chunk without data-invite').toBe(false);
        await askForInvite(page);
        const s = await untilInvite(page, 'the invitation on demand', shown);
        expect(s.events).toEqual(['command']);
        expect(s.active).not.toBe(nowText);
        await page.run(() => document.querySelector('dialback-widget')!.shadowRoot!.querySelector<HTMLButtonElement>('.invite button + button')!.click());
        await untilInvite(page, 'the bubble closed', (x) => x.text === null);
        await askForInvite(page);
        await settle(page, 800);
        const again = await untilInvite(page, 'the state', () => true);
        expect(again.text, 'a second dialback("invite") in the session').toBeNull();
        expect(again.events).toEqual(['command']);
      });
    }, 40_000);
  });
}
