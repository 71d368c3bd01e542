// What the UI works with: the entry's context plus what the UI chunk loads for itself (the visitor's
// language catalog and the attribution reader, each a small chunk of its own fetched in parallel).
import type { Attribution } from '../../../server/src/contract';
import type { WidgetContext } from '../context';
import type { Messages } from './i18n/types';

export interface UiContext extends WidgetContext {
  messages: Messages;
  readAttribution(...pageUrls: string[]): Attribution;
}
