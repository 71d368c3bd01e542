// The invitation in Spanish (see ./types.ts): a chunk of its own, fetched only when it is shown.
import type { InviteTexts } from './types.ts';

export const texts: InviteTexts = ['¿Tiene preguntas? Podemos llamarle ahora mismo.', '¿Tiene preguntas? Ahora estamos ocupados: programe una llamada para más tarde.', 'Cerrar'];
