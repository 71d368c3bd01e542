// The only texts the entry needs before the UI chunk (with the full catalogs) has arrived: the
// launcher's label, and the sentence shown when the UI cannot be loaded at all (relay unreachable).
import type { Lang } from './lang.ts';

export const launcherText: Record<Lang, [label: string, unavailable: string]> = {
  en: ['Call me back', 'Call back is unavailable now.'],
  uk: ['Передзвоніть мені', 'Зворотний дзвінок зараз недоступний.'],
  ru: ['Перезвоните мне', 'Обратный звонок сейчас недоступен.'],
  pl: ['Oddzwońcie do mnie', 'Oddzwanianie jest teraz niedostępne.'],
  de: ['Rückruf anfordern', 'Rückruf ist gerade nicht verfügbar.'],
};
