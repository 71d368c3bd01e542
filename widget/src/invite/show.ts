// The part of the invitation that only a visitor about to see it downloads: a chunk of its own,
// imported the first time a trigger passes the caps. It puts the (empty) live region in place,
// then asks the relay whether anyone can answer and fetches this language's words, together.
import type { InviteContext } from '../context.ts';
import { fetchAvailability, type Availability } from './availability.ts';
import { createBubble } from './bubble.ts';
import css from './invite.css?inline';
import { inviteTexts } from './texts/index.ts';

export interface Presenter {
  /** What the relay said: `''` when nobody can answer and no time can be booked. */
  state: Availability;
  /** Shows the bubble (chosen, it opens the dialog as the launcher does); `custom`: the site's own sentence (data-invite-text) for "someone can answer now". */
  show(custom: string): void;
  shown(): boolean;
}

export async function preparePresenter(ctx: InviteContext): Promise<Presenter> {
  ctx.adoptStyles(css);
  const bubble = createBubble(ctx);
  // The dialog opening (from the bubble, the launcher or the page) takes the bubble away.
  ctx.launcher.ownerDocument.defaultView!.addEventListener('dialback:open', bubble.hide);
  const [state, { texts }] = await Promise.all([fetchAvailability(ctx.config.relay), inviteTexts[ctx.config.lang]()]);
  return {
    state,
    show: (custom) => bubble.show(state === 'now' ? custom || texts[0] : texts[1], texts[2], () => ctx.launcher.click()),
    shown: bubble.shown,
  };
}
