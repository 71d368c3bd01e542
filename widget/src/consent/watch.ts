// Whether the widget may read the tracking cookies and use the site's storage now, and what it tells
// the relay about the visitor's consent. `data-consent` on the script tag decides how:
//   auto      (the default) follow the page's consent signal when it has one: the first with an
//             answer of dialback('consent', …), IAB TCF, Cookiebot, OneTrust, the WordPress Consent
//             API and Google Consent Mode; a page with none of them is read as before
//   required  nothing is read from the device or written to it until analytics consent is granted
//   off       consent signals are ignored: cookies are read as before
// Any other value counts as `required`. Asked each time it matters (the dialog's first open, the
// request, the invitation's memory): consent given later counts from then on; withdrawn, it stops.
// Lazily loaded, never in the entry: the entry only records dialback('consent', …) (context.told).
import type { ConsentSource, TrackingConsent } from '../../../server/src/contract.ts';
import type { WidgetContext } from '../context.ts';
import { consentMode, cookiebot, oneTrust, told, wpConsentApi, type PageWindow, type Signal } from './platforms.ts';
import { watchTcf } from './tcf.ts';

export interface ConsentWatch {
  /** The consent as known now; `cookiesRead`: the widget may read the tracking cookies and use the site's storage. */
  now(): TrackingConsent;
  /** Runs `listener` each time the page or its platform may have changed the answer. */
  onChange(listener: () => void): void;
}

type WatchContext = Pick<WidgetContext, 'script' | 'told' | 'report'>;

// One watch per page, shared by the invitation's chunk and the dialog's (they share the context).
let watch: [told: unknown[], ConsentWatch] | undefined;

export function watchConsent(ctx: WatchContext): ConsentWatch {
  if (watch?.[0] !== ctx.told) watch = [ctx.told, createWatch(ctx)];
  return watch[1];
}

function createWatch({ script, told: commands, report }: WatchContext): ConsentWatch {
  const win = window as PageWindow;
  let mode = script?.getAttribute('data-consent')?.trim().toLowerCase() || 'auto';
  if (!/^(auto|required|off)$/.test(mode)) {
    console.warn(`[dialback] data-consent="${mode}": read as required`);
    mode = 'required';
  }
  const listeners: Array<() => void> = [];
  const changed = () =>
    listeners.forEach((listener) => {
      try {
        listener();
      } catch (error) {
        report(error); // told from a platform's own callback: never thrown into it
      }
    });
  let oneTrustTold = false;
  const sources: Array<[ConsentSource, () => Signal | undefined]> = [
    ['command', () => told(commands.at(-1))],
    ['tcf', watchTcf(win, changed)],
    ['cookiebot', () => cookiebot(win)],
    [
      'onetrust',
      () => {
        // OneTrust's own callback, taken at the first read that finds it (its script may come later).
        if (!oneTrustTold && win.OneTrust?.OnConsentChanged) {
          oneTrustTold = true;
          win.OneTrust.OnConsentChanged(changed);
        }
        return oneTrust(win);
      },
    ],
    ['wp-consent-api', () => wpConsentApi(win)],
    ['consent-mode', () => consentMode(win)],
  ];

  if (mode !== 'off') {
    // The entry only records the commands: from now on each new one is told here too.
    commands.push = (...items) => {
      const length = Array.prototype.push.apply(commands, items);
      changed();
      return length;
    };
    // Cookiebot tells both at load (a visitor who answered before) and at each answer.
    for (const type of ['CookiebotOnAccept', 'CookiebotOnDecline']) win.addEventListener(type, changed);
    win.document.addEventListener('wp_listen_for_consent_change', changed);
  }

  return {
    now() {
      const present: Array<[ConsentSource, Signal]> = [];
      if (mode !== 'off')
        for (const [source, read] of sources) {
          try {
            const signal = read();
            if (signal) present.push([source, signal]);
          } catch (error) {
            report(error); // a broken platform is no answer
          }
        }
      const [source, [analytics, ads]] = present.find(([, s]) => s[0] !== 'unknown') ?? present[0] ?? ['none', ['unknown', 'unknown']];
      return { analytics, ads, source, cookiesRead: analytics === 'granted' || (source === 'none' && mode !== 'required') };
    },
    onChange: (listener) => void listeners.push(listener),
  };
}
