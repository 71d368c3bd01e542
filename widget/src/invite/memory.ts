// What the invitation remembers about this visitor, in the site's own storage under `dialback:` keys
// (no cookies): sessionStorage `dialback:pages` (pages of this site in this tab's session) and
// `dialback:invited` (shown in this session); localStorage `dialback:invited` and `dialback:asked`
// (when it was last shown, when the visitor last asked for a call; milliseconds since 1970).
// Storage may throw (blocked, sandboxed frames) or be full: then this page's own memory keeps the
// caps for as long as the page lives. So it does without the visitor's analytics consent (consent/):
// the storage is then neither read nor written; given later, it is from then on.

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
}

/** `allowed`: whether the visitor's consent lets the widget use the site's storage now. */
export function createMemory(win: Window, now: () => number, allowed: () => boolean): InviteMemory {
  const kept: Record<string, string> = {};
  const get = (store: Store, key: string) => {
    try {
      if (allowed()) return win[store].getItem('dialback:' + key) ?? kept[store + key];
    } catch {
      // blocked: this page's memory
    }
    return kept[store + key];
  };
  const set = (store: Store, key: string, value: unknown) => {
    kept[store + key] = String(value);
    try {
      if (allowed()) win[store].setItem('dialback:' + key, String(value));
    } catch {
      // full or refused: kept above for this page
    }
  };
  /** `key` in localStorage holds an instant less than `days` days ago. */
  const within = (key: string, days: number) => now() - Number(get('localStorage', key)) < days * dayMs;
  return {
    countPage: () => {
      const pages = Number(get('sessionStorage', 'pages') ?? 0) + 1 || 1;
      set('sessionStorage', 'pages', pages);
      return pages;
    },
    allowed: (days) => !get('sessionStorage', 'invited') && !within('invited', days) && !within('asked', 30),
    shown: () => {
      set('sessionStorage', 'invited', 1);
      set('localStorage', 'invited', now());
    },
    asked: () => set('localStorage', 'asked', now()),
  };
}
