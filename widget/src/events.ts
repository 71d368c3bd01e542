// What the widget tells the page: `dialback:<name>` CustomEvents on window, handlers registered with
// dialback('on', name, fn), and a `dialback_<name>` dataLayer entry when Google Tag Manager is present.
// Details never carry the phone number, not even masked: analytics tools must not collect it.
import { report } from './report.ts';

export type EventName = 'open' | 'close' | 'submit' | 'success' | 'error' | 'invite' | 'messenger';
export type EventDetail = Record<string, string | number | boolean>;
export type Handler = (detail: EventDetail) => void;

export interface EventHub {
  on(name: string, handler: Handler): void;
  emit(name: EventName, detail?: EventDetail): void;
}

export function createEventHub(win: Window): EventHub {
  const handlers: Array<[string, Handler]> = [];
  // Each listener runs guarded: a failing site handler or a broken dataLayer never stops the widget.
  const guard = (fn: () => void) => {
    try {
      fn();
    } catch (error) {
      report(error);
    }
  };
  return {
    on: (name, handler) => handlers.push([name, handler]),
    emit(name, detail = {}) {
      guard(() => win.dispatchEvent(new CustomEvent('dialback:' + name, { detail: { ...detail } })));
      for (const [n, handler] of handlers.slice()) if (n === name) guard(() => handler({ ...detail }));
      const dataLayer = (win as { dataLayer?: { push?: (entry: object) => void } }).dataLayer;
      if (typeof dataLayer?.push === 'function') guard(() => dataLayer.push!({ event: 'dialback_' + name, ...detail }));
    },
  };
}
