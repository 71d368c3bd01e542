// The only texts the entry needs before the UI chunk (with the full catalogs) has arrived: the
// launcher's label, and the sentence shown when the UI cannot be loaded at all (relay unreachable).
import type { Lang } from './lang';

export const launcherText: Record<Lang, [label: string, unavailable: string]> = {
  en: ['Call me back', 'The callback service cannot be reached right now.'],
  uk: ['Передзвоніть мені', 'Сервіс зворотного дзвінка зараз недоступний.'],
  ru: ['Перезвоните мне', 'Сервис обратного звонка сейчас недоступен.'],
  pl: ['Oddzwońcie do mnie', 'Usługa oddzwaniania jest teraz niedostępna.'],
  de: ['Rückruf anfordern', 'Der Rückrufdienst ist gerade nicht erreichbar.'],
};
