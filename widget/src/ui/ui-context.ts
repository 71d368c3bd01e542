// What the UI works with: the entry's context plus what the UI chunk loads for itself (the visitor's
// language catalog, the attribution reader and optional parts, each a small chunk of its own
// fetched in parallel).
import type { Attribution } from '../../../server/src/contract.ts';
import type { WidgetConfig } from '../config.ts';
import type { WidgetContext } from '../context.ts';
import type { Messages } from './i18n/types.ts';
import type { ConsentField } from './ConsentField.tsx';
import type { Messengers } from './messengers/Messengers.tsx';

export interface UiContext extends WidgetContext {
  config: WidgetConfig;
  messages: Messages;
  readAttribution(cookiesAtLoad: string, ...pageUrls: string[]): Attribution;
  /** Loaded with the UI only when the site asks for consent (data-consent-text). */
  ConsentField: typeof ConsentField | null;
  /** Loaded with the UI only when the script tag names a messenger (data-telegram, data-whatsapp, data-viber). */
  Messengers?: typeof Messengers | undefined;
}
