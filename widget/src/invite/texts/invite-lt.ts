// The invitation in Lithuanian (see ./types.ts): a chunk of its own, fetched only when it is shown.
import type { InviteTexts } from './types.ts';

export const texts: InviteTexts = [
  'Turite klausimų? Galime jums perskambinti dabar pat.',
  'Turite klausimų? Dabar visi užimti: užsisakykite skambutį vėlesniam laikui.',
  'Uždaryti',
];
