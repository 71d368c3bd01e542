// The invitation in Polish (see ./types.ts): a chunk of its own, fetched only when it is shown.
import type { InviteTexts } from './types.ts';

export const texts: InviteTexts = ['Masz pytania? Możemy oddzwonić od razu.', 'Masz pytania? Teraz wszyscy są zajęci: umów rozmowę na później.', 'Zamknij'];
