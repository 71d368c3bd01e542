// When the invitation (data-invite) stays away or changes its words, in Chromium, Firefox ESR and
// WebKit: not while the visitor types in a field of the page, not on excluded paths, one warning for
// a bad entry; what the relay's /api/status says: someone free now (the site's own sentence), nobody
// free but times to book, closed with nothing to book (no invitation at all).
import { describe, expect, test } from 'vitest';
import { untilInvite } from '../support/engines/invite-page.ts';
import { askForInvite, expectNoInvite, focusHostButton, invitePage, laterText, shown, useInviteEngine, useInviteSuite } from '../support/engines/invite-suite.ts';
import { engineNames } from '../support/engines/launch.ts';

const suite = useInviteSuite(['open', 'busy', 'shut']);

test('the closed relay has nothing to book', async () => {
  const status = (await (await fetch(`${suite.relays.shut!.relayUrl}/api/status`, { headers: { origin: suite.host.url } })).json()) as { openNow: boolean; windows: unknown[] };
  expect(status).toMatchObject({ openNow: false, windows: [] });
});

for (const name of engineNames) {
  describe(name, () => {
    const withPage = useInviteEngine(suite, name);

    test('not while the visitor types in a field of the page (shown when they leave it); not on excluded paths; one warning for a bad entry', async () => {
      const warnings = `<script>window.__warnings=[];console.warn=function(){window.__warnings.push([].join.call(arguments,' '))}</script>`;
      const field = '<label>Your name <input id="name"></label><label>Notes <span id="notes" contenteditable="true">x</span></label>';
      await withPage(invitePage(suite, { invite: 'hover, scroll:500' }, { head: warnings, body: field }), async (page) => {
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
        await askForInvite(page);
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
      await withPage(invitePage(suite, { invite: 'time:0 pages:1', 'invite-exclude': '/cart, /checkout' }, { path: '/checkout/step-1' }), async (page) => {
        await expectNoInvite(page, 'on /checkout/step-1');
        await askForInvite(page);
        await expectNoInvite(page, 'dialback("invite") on /checkout/step-1', 800);
      });
    }, 40_000);

    test('what the relay says: nobody free but times to book says so; closed with nothing to book shows nothing', async () => {
      await withPage(invitePage(suite, { invite: 'time:0', 'invite-text': 'Talk to a plumber now?' }, { relay: 'busy' }), async (page) => {
        const s = await untilInvite(page, 'the invitation', shown);
        expect(s.text).toBe(laterText);
      });
      await withPage(invitePage(suite, { invite: 'time:0', 'invite-text': 'Talk to a plumber now?' }), async (page) => {
        expect((await untilInvite(page, 'the invitation', shown)).text).toBe('Talk to a plumber now?');
      });
      await withPage(invitePage(suite, { invite: 'time:0' }, { relay: 'shut' }), async (page) => {
        await expectNoInvite(page, 'closed, nothing to book');
        await askForInvite(page);
        await expectNoInvite(page, 'dialback("invite") when closed with nothing to book', 800);
      });
    }, 40_000);
  });
}
