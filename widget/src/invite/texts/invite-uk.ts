// The invitation in Ukrainian (see ./types.ts): a chunk of its own, fetched only when it is shown.
import type { InviteTexts } from './types.ts';

export const texts: InviteTexts = ['Є запитання? Ми можемо передзвонити вам зараз.', 'Є запитання? Зараз усі зайняті: замовте дзвінок на потім.', 'Закрити'];
