// One chunk per language, as the dialog's catalogs: the visitor downloads only their own words.
import type { Lang } from '../../lang.ts';
import type { InviteTexts } from './types.ts';

export const inviteTexts: Record<Lang, () => Promise<{ texts: InviteTexts }>> = {
  en: () => import('./invite-en.ts'),
  uk: () => import('./invite-uk.ts'),
  ru: () => import('./invite-ru.ts'),
  pl: () => import('./invite-pl.ts'),
  de: () => import('./invite-de.ts'),
  cs: () => import('./invite-cs.ts'),
  ro: () => import('./invite-ro.ts'),
  lt: () => import('./invite-lt.ts'),
  lv: () => import('./invite-lv.ts'),
  et: () => import('./invite-et.ts'),
  kk: () => import('./invite-kk.ts'),
  es: () => import('./invite-es.ts'),
};
