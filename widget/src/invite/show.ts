// The rest of the invitation, a chunk of its own: fetched the first time a trigger fires (or the page
// asks with dialback('invite'), or the tag counts pages with pages:N, or the visitor asks for a call),
// never merely because the page has data-invite. It holds the memory of the caps (in the site's
// storage only as the visitor's consent allows: consent/), and the bubble, which asks the relay
// whether anyone can answer and fetches this language's words, together, when it is first shown.
import { watchConsent, type ConsentWatch } from '../consent/watch.ts';
import type { InviteContext } from '../context.ts';
import { fetchAvailability, type Availability } from './availability.ts';
import { createBubble } from './bubble.ts';
import css from './invite.css?inline';
import { createMemory, type InviteMemory } from './memory.ts';
import { inviteTexts } from './texts/index.ts';

export interface Presenter {
  /** What the relay said: `''` when nobody can answer and no time can be booked. */
  state: Availability;
  /** Shows the bubble (chosen, it opens the dialog as the launcher does); `custom`: the site's own sentence (data-invite-text) for "someone can answer now". */
  show(custom: string): void;
  shown(): boolean;
}

export interface InviteParts {
  memory: InviteMemory;
  consent: ConsentWatch;
  /** The bubble with the relay's answer and the words: prepared once, when first needed (again after a failed download). */
  presenter(): Promise<Presenter>;
}

async function preparePresenter(ctx: InviteContext): Promise<Presenter> {
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

export function prepare(ctx: InviteContext): InviteParts {
  const win = ctx.launcher.ownerDocument.defaultView!;
  const consent = watchConsent(ctx);
  // The page's clock, read each time (a test may move it on).
  const memory = createMemory(
    win,
    () => Date.now(),
    () => consent.now().cookiesRead,
  );
  // Consent given later: what this page kept goes into the storage. A platform that tells no event
  // (Google Consent Mode) is caught up with as the visitor leaves.
  consent.onChange(memory.sync);
  win.addEventListener('pagehide', memory.sync);
  let presenter: Promise<Presenter> | undefined;
  return {
    memory,
    consent,
    presenter: () =>
      (presenter ??= preparePresenter(ctx).catch((error) => {
        presenter = undefined;
        throw error;
      })),
  };
}
