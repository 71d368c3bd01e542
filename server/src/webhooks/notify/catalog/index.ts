// The catalogs by language (NOTIFY_LANG).
import type { NotifyLanguage } from '../../../config/notify.ts';
import { cs } from './cs.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { et } from './et.ts';
import { kk } from './kk.ts';
import { lt } from './lt.ts';
import { lv } from './lv.ts';
import { pl } from './pl.ts';
import { ro } from './ro.ts';
import { ru } from './ru.ts';
import type { NotifyTexts } from './types.ts';
import { uk } from './uk.ts';

export type { NotifyTexts };
export const catalogs: Readonly<Record<NotifyLanguage, NotifyTexts>> = { en, uk, ru, pl, de, cs, ro, lt, lv, et, kk, es };
