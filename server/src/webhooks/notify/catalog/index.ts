// The catalogs by language (NOTIFY_LANG).
import type { NotifyLanguage } from '../../../config/notify.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { pl } from './pl.ts';
import { ru } from './ru.ts';
import type { NotifyTexts } from './types.ts';
import { uk } from './uk.ts';

export type { NotifyTexts };
export const catalogs: Readonly<Record<NotifyLanguage, NotifyTexts>> = { en, uk, ru, pl, de };
