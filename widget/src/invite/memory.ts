// What the invitation remembers about this visitor, in the site's own storage under `dialback:` keys
// (no cookies): sessionStorage `dialback:pages` (pages of this site in this tab's session) and
// `dialback:invited` (shown in this session); localStorage `dialback:invited` and `dialback:asked`
// (when it was last shown, when the visitor last asked for a call; milliseconds since 1970).
// Storage may throw (blocked, sandboxed frames) or be full: then this page's own memory keeps the
// caps for as long as the page lives. So does the visitor's consent: without analytics consent
// (consent/) the storage is neither read nor written, and once it is granted what this page kept
// is written there (this page then counts on top of the session's pages).

type Store = 'localStorage' | 'sessionStorage';

const dayMs = 864e5;

export interface InviteMemory {
  /** Counts this page view; returns the pages of this site seen in this session, this one included. */
  countPage(): number;
  /** Whether the caps allow an invitation now: not yet this session, not within `days` days, not within 30 days of a request. */
  allowed(days: number): boolean;
  /** The invitation was shown now. */
  shown(): void;
  /** The visitor asked for a call now. */
  asked(): void;
  /** The consent may have changed: once storage is allowed, what this page kept goes there. Returns the session's pages. */
  sync(): number;
}

/** `allowed`: whether the visitor's consent lets the widget use the site's storage now. */
export function createMemory(win: Window, now: () => number, allowed: () => boolean): InviteMemory {
  /** What this page set, by store and key; `pending`: not in the storage yet. */
  const kept: Record<string, string> = {};
  const pending = new Set<string>();
  /** This page is counted in memory only: it is added to the session's stored pages once storage is allowed. */
  let uncounted = false;
  const stored = (store: Store, key: string) => {
    try {
      return allowed() ? win[store].getItem('dialback:' + key) : null;
    } catch {
      return null; // blocked: this page's memory
    }
  };
  const get = (store: Store, key: string) => stored(store, key) ?? kept[store + ':' + key];
  const flush = () => {
    if (!allowed()) return;
    if (uncounted) {
      uncounted = false;
      kept['sessionStorage:pages'] = String(Number(stored('sessionStorage', 'pages') ?? 0) + 1 || 1);
    }
    for (const name of pending) {
      const [store, key] = name.split(':') as [Store, string];
      try {
        win[store].setItem('dialback:' + key, kept[name]!);
        pending.delete(name);
      } catch {
        // full or refused: kept for this page
      }
    }
  };
  const set = (store: Store, key: string, value: unknown) => {
    kept[store + ':' + key] = String(value);
    pending.add(store + ':' + key);
    flush();
  };
  const pages = () => Number(get('sessionStorage', 'pages')) || 1;
  /** `key` in localStorage holds an instant less than `days` days ago. */
  const within = (key: string, days: number) => now() - Number(get('localStorage', key)) < days * dayMs;
  return {
    countPage: () => {
      uncounted = !allowed();
      set('sessionStorage', 'pages', Number(get('sessionStorage', 'pages') ?? 0) + 1 || 1);
      return pages();
    },
    allowed: (days) => !get('sessionStorage', 'invited') && !within('invited', days) && !within('asked', 30),
    shown: () => {
      set('sessionStorage', 'invited', 1);
      set('localStorage', 'invited', now());
    },
    asked: () => set('localStorage', 'asked', now()),
    sync() {
      flush();
      return pages();
    },
  };
}
