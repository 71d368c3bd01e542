// The invitation in English (see ./types.ts): a chunk of its own, fetched only when it is shown.
import type { InviteTexts } from './types.ts';

export const texts: InviteTexts = ['Questions? We can call you back right now.', 'Questions? We are busy now: book a call for later.', 'Close'];
