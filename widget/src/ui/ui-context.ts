// What the UI works with: the entry's context plus what the UI chunk loads for itself (the visitor's
// language catalog and optional parts, each a small chunk of its own fetched in parallel).
import type { WidgetConfig } from '../config.ts';
import type { WidgetContext } from '../context.ts';
import type { Messages } from './i18n/types.ts';
import type { ConsentField } from './ConsentField.tsx';
import type { Chooser } from './departments.tsx';
import type { Messengers } from './messengers/Messengers.tsx';

export interface UiContext extends WidgetContext {
  config: WidgetConfig;
  messages: Messages;
  /** Loaded with the UI only when the site asks for consent (data-consent-text). */
  ConsentField: typeof ConsentField | null;
  /** Set when the relay has several departments (departments.tsx), once the status is known. */
  pick?: Chooser;
  /** Loaded with the UI only when the script tag names a messenger (data-telegram, data-whatsapp, data-viber). */
  Messengers?: typeof Messengers | undefined;
}
