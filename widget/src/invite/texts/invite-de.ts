// The invitation in German (see ./types.ts): a chunk of its own, fetched only when it is shown.
import type { InviteTexts } from './types.ts';

export const texts: InviteTexts = ['Fragen? Wir können Sie jetzt gleich zurückrufen.', 'Fragen? Gerade ist niemand frei: buchen Sie einen Rückruf für später.', 'Schließen'];
