// The invitation in Romanian (see ./types.ts): a chunk of its own, fetched only when it is shown.
import type { InviteTexts } from './types.ts';

export const texts: InviteTexts = ['Aveți întrebări? Vă putem suna înapoi chiar acum.', 'Aveți întrebări? Acum suntem ocupați: programați un apel pentru mai târziu.', 'Închideți'];
