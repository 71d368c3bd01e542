// The invitation in Russian (see ./types.ts): a chunk of its own, fetched only when it is shown.
import type { InviteTexts } from './types.ts';

export const texts: InviteTexts = ['Есть вопросы? Мы можем перезвонить вам сейчас.', 'Есть вопросы? Сейчас все заняты: закажите звонок на потом.', 'Закрыть'];
