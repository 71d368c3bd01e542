// The invitation in Czech (see ./types.ts): a chunk of its own, fetched only when it is shown.
import type { InviteTexts } from './types.ts';

export const texts: InviteTexts = ['Máte dotaz? Můžeme vám hned zavolat zpět.', 'Máte dotaz? Teď jsou všichni obsazení: objednejte si hovor na později.', 'Zavřít'];
