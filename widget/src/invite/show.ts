// The rest of the invitation, a chunk of its own: fetched the first time a trigger fires (or the page
// asks with dialback('invite'), or the tag counts pages with pages:N, or the visitor asks for a call),
// never merely because the page has data-invite. It holds the memory of the caps (in the site's
// storage only as the visitor's consent allows: consent/), and the bubble, which asks the relay
// whether anyone can answer and fetches this language's words, together, when it is first shown.
import { consentNow } from '../consent/consent.ts';
import type { InviteContext } from '../context.ts';
import { fetchAvailability, type Availability } from './availability.ts';
import { createBubble } from './bubble.ts';
import css from './invite.css?inline';
import { createMemory, type InviteMemory } from './memory.ts';

export interface Presenter {
  /** What the relay said: `''` when nobody can answer and no time can be booked. */
  state: Availability;
  /** Shows the bubble (chosen, it opens the dialog as the launcher does); `custom`: the site's own sentence (data-invite-text) for "someone can answer now". */
  show(custom: string): void;
  shown(): boolean;
}

export interface InviteParts {
  memory: InviteMemory;
  /** The bubble with the relay's answer and the words: prepared once, when first needed (again after a failed download). */
  presenter(): Promise<Presenter>;
}

export function prepare(ctx: InviteContext): InviteParts {
  const { launcher } = ctx;
  let presenter: Promise<Presenter> | undefined;
  const present = async (): Promise<Presenter> => {
    ctx.adoptStyles(css);
    const bubble = createBubble(ctx);
    // The dialog opening (from the bubble, the launcher or the page) takes the bubble away.
    addEventListener('dialback:open', bubble.hide);
    const [state, { messages }] = await Promise.all([fetchAvailability(ctx.config.relay), ctx.catalog()]);
    const [now, later] = messages.invite;
    return { state, show: (custom) => bubble.show(state === 'now' ? custom || now : later, messages.close, () => launcher.click()), shown: bubble.shown };
  };
  return {
    // The page's clock, read each time (a test may move it on).
    memory: createMemory(
      launcher.ownerDocument.defaultView!,
      () => Date.now(),
      () => consentNow(ctx).cookiesRead,
    ),
    presenter: () =>
      (presenter ??= present().catch((error) => {
        presenter = undefined;
        throw error;
      })),
  };
}
