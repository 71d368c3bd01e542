// The invitation in Kazakh (see ./types.ts): a chunk of its own, fetched only when it is shown.
import type { InviteTexts } from './types.ts';

export const texts: InviteTexts = [
  'Сұрақтарыңыз бар ма? Сізге қазір қоңырау шала аламыз.',
  'Сұрақтарыңыз бар ма? Қазір бәрі бос емес: қоңырауды кейінгі уақытқа жоспарлаңыз.',
  'Жабу',
];
