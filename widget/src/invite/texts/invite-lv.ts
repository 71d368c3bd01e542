// The invitation in Latvian (see ./types.ts): a chunk of its own, fetched only when it is shown.
import type { InviteTexts } from './types.ts';

export const texts: InviteTexts = ['Jautājumi? Mēs varam jums atzvanīt tūlīt.', 'Jautājumi? Pašlaik visi ir aizņemti: piesakiet zvanu vēlākam laikam.', 'Aizvērt'];
