// The invitation in Estonian (see ./types.ts): a chunk of its own, fetched only when it is shown.
import type { InviteTexts } from './types.ts';

export const texts: InviteTexts = ['Küsimusi? Saame teile kohe tagasi helistada.', 'Küsimusi? Praegu on kõik hõivatud: broneerige kõne hilisemaks.', 'Sulge'];
