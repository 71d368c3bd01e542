// The invitation's first chunk: imported by the entry at idle when the script tag has data-invite (or
// when the page calls dialback('invite')). Reads its own attributes and arms the triggers; the rest
// (show.ts: the caps' memory and the bubble) is fetched when a trigger first fires, and shows the
// bubble when every cap allows it. Returns `show`, which dialback('invite') calls.
import type { InviteContext } from '../context.ts';
import type { InviteParts } from './show.ts';
import { armTriggers, parseTriggers } from './triggers.ts';

/** Shows the invitation if the caps allow; `trigger` names what asked (dialback('invite') leaves it out). */
export type ShowInvite = (trigger?: string) => void;

export function start(ctx: InviteContext): ShowInvite {
  const { launcher } = ctx;
  const doc = launcher.ownerDocument;
  const win = doc.defaultView!;
  const data = (name: string) => ctx.script?.getAttribute('data-invite' + name)?.trim() ?? '';
  const [triggers, invalid] = parseTriggers(data(''));
  if (invalid[0]) console.warn('[dialback] data-invite: ignored ' + invalid.join(', '));
  const days = Number(data('-days') || 1);
  const exclude = data('-exclude')
    .split(/\s*,\s*/)
    .filter(Boolean);
  /** The rest of the invitation (show.ts), fetched once when first needed (again after a failed download). */
  let parts: Promise<InviteParts> | undefined;
  const load = () =>
    (parts ??= import('./show.ts').then(
      (module) => module.prepare(ctx),
      (error) => {
        parts = undefined;
        throw error;
      },
    ));
  let bubble: { shown(): boolean } | undefined;
  let waiting = false;
  // The visitor asked for a call: no invitation for 30 days.
  win.addEventListener('dialback:success', () => void load().then((p) => p.memory.asked(), ctx.report));

  /** The host page's own field has focus: the visitor is typing there. */
  const typing = () => !!doc.activeElement?.matches('input,textarea,select,[contenteditable]');
  /** Every rule of this page: not shown already, not on an excluded path, not while the dialog is open (the launcher's aria-expanded). */
  const here = () => !bubble?.shown() && !exclude.some((prefix) => win.location.pathname.startsWith(prefix)) && launcher.getAttribute('aria-expanded') !== 'true';

  const show: ShowInvite = (trigger = 'command') => {
    if (waiting || !here()) return;
    if (typing()) {
      // Tried again once the visitor has left the field (a task later, when focus has landed).
      doc.addEventListener('focusout', () => setTimeout(show, 0, trigger), { once: true });
      return;
    }
    waiting = true;
    const allowed = (p: InviteParts) => here() && p.memory.allowed(days >= 0 ? days : 1);
    load()
      .then(async (p) => {
        if (!allowed(p)) return;
        const ready = (bubble = await p.presenter());
        // The answer took a moment: the visitor may have opened the dialog or started typing meanwhile.
        if (ready.state && allowed(p) && !typing()) {
          p.memory.shown();
          ready.show(data('-text'));
          ctx.emit('invite', { trigger });
        }
      })
      // A chunk could not be downloaded (flaky network): tried again at the next trigger.
      .then(
        () => (waiting = false),
        () => (waiting = false),
      );
  };

  // Pages are counted only where the tag asks for pages:N: its chunk is fetched at once then, the
  // triggers armed once this page is counted.
  const arm = (pages: number) => armTriggers(triggers, win, () => Date.now(), win.performance.now(), pages, show);
  if (triggers.some(([name]) => name === 'pages')) load().then((p) => arm(p.memory.countPage()), ctx.report);
  else arm(0);
  return show;
}
