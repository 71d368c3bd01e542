// The invitation's first chunk: imported by the entry at idle when the script tag has data-invite (or
// when the page calls dialback('invite')). Reads its own attributes, keeps the memory, arms the
// triggers, and when one fires and every cap allows it, fetches the bubble (show.ts, with the
// relay's answer and the words) and shows it. Returns `show`, which dialback('invite') calls.
import type { InviteContext } from '../context.ts';
import { createMemory } from './memory.ts';
import type { Presenter } from './show.ts';
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
  // The page's clock, read each time (a test may move it on).
  const now = () => Date.now();
  const memory = createMemory(win, now);
  /** The bubble with the relay's answer: fetched once per page, when first needed. */
  let presenter: Promise<Presenter> | undefined;
  let bubble: Presenter | undefined;
  let waiting = false;
  // The visitor asked for a call: no invitation for 30 days.
  win.addEventListener('dialback:success', memory.asked);

  /** The host page's own field has focus: the visitor is typing there. */
  const typing = () => !!doc.activeElement?.matches('input,textarea,select,[contenteditable]');
  /** Every rule but the relay's answer; an open dialog (the launcher's aria-expanded) is a "no" too. */
  const allowed = () =>
    !bubble?.shown() &&
    memory.allowed(days >= 0 ? days : 1) &&
    !exclude.some((prefix) => win.location.pathname.startsWith(prefix)) &&
    launcher.getAttribute('aria-expanded') !== 'true';

  const show: ShowInvite = (trigger = 'command') => {
    if (waiting || !allowed()) return;
    if (typing()) {
      // Tried again once the visitor has left the field (a task later, when focus has landed).
      doc.addEventListener('focusout', () => setTimeout(show, 0, trigger), { once: true });
      return;
    }
    waiting = true;
    (presenter ??= import('./show.ts').then((module) => module.preparePresenter(ctx))).then(
      (ready) => {
        waiting = false;
        bubble = ready;
        // The answer took a moment: the visitor may have opened the dialog or started typing meanwhile.
        if (ready.state && allowed() && !typing()) {
          memory.shown();
          ready.show(data('-text'));
          ctx.emit('invite', { trigger });
        }
      },
      // A chunk could not be downloaded (flaky network): tried again at the next trigger.
      () => (waiting = false) || (presenter = undefined),
    );
  };

  armTriggers(triggers, win, now, win.performance.now(), memory.countPage(), show);
  return show;
}
