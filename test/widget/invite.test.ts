// The invitation's logic in jsdom, on a clock the test moves: which data-invite entries are
// triggers, what each trigger listens to, the caps and their memory in the site's storage, and what
// the relay's status makes of it.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { availabilityOf } from '../../widget/src/invite/availability.ts';
import { createMemory } from '../../widget/src/invite/memory.ts';
import { armTriggers, parseTriggers, type TriggerName } from '../../widget/src/invite/triggers.ts';

const day = 86_400_000;

describe('parseTriggers', () => {
  test('reads a comma and/or space separated list', () => {
    expect(parseTriggers('exit, time:30  scroll:50,pages:3')).toEqual([
      [
        ['exit', 0],
        ['time', 30],
        ['scroll', 50],
        ['pages', 3],
      ],
      [],
    ]);
    expect(parseTriggers('')).toEqual([[], []]);
  });

  test('returns what is not a trigger, to be warned about once', () => {
    expect(parseTriggers('exit,time:,time:x,scroll:101,hover,pages:-1,time:5')).toEqual([
      [
        ['exit', 0],
        ['time', 5],
      ],
      ['time:', 'time:x', 'scroll:101', 'hover', 'pages:-1'],
    ]);
  });

  test('0 and 100 are values', () => {
    expect(parseTriggers('time:0 scroll:100')[0]).toEqual([
      ['time', 0],
      ['scroll', 100],
    ]);
  });
});

describe('armTriggers', () => {
  let clock: number;
  const now = () => clock;
  let fired: TriggerName[];
  const fire = (name: TriggerName) => void fired.push(name);

  beforeEach(() => {
    clock = 1_000_000;
    fired = [];
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  // Each test gets its own window: listeners do not carry over.
  type FrameWindow = Window & typeof globalThis;
  function freshWindow(): FrameWindow {
    const frame = document.createElement('iframe');
    document.body.append(frame);
    return frame.contentWindow as FrameWindow;
  }

  test('time:N fires N seconds after the page started (time already spent counts)', () => {
    const win = window;
    armTriggers([['time', 10]], win, now, 4000, 1, fire);
    vi.advanceTimersByTime(5999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['time']);
  });

  test('pages:N fires at once from the Nth page of the session on', () => {
    armTriggers([['pages', 3]], window, now, 0, 2, fire);
    expect(fired).toEqual([]);
    armTriggers([['pages', 3]], window, now, 0, 3, fire);
    expect(fired).toEqual(['pages']);
  });

  test('scroll:N fires when the bottom of the window reaches N % of the page', () => {
    const win = freshWindow();
    Object.defineProperty(win.document.documentElement, 'scrollHeight', { configurable: true, value: 4000 });
    Object.defineProperty(win, 'innerHeight', { configurable: true, value: 1000 });
    armTriggers([['scroll', 50]], win, now, 0, 1, fire);
    const scrollTo = (y: number) => {
      Object.defineProperty(win, 'scrollY', { configurable: true, value: y });
      win.dispatchEvent(new win.Event('scroll'));
    };
    scrollTo(900);
    expect(fired).toEqual([]);
    scrollTo(1000);
    expect(fired).toEqual(['scroll']);
  });

  describe('exit', () => {
    const mouseOut = (win: FrameWindow, clientY: number, relatedTarget: EventTarget | null = null) =>
      win.document.documentElement.dispatchEvent(new win.MouseEvent('mouseout', { bubbles: true, clientY, relatedTarget }));
    const pointer = (win: FrameWindow, pointerType: string) => {
      const event = new win.MouseEvent('pointerdown', { bubbles: true });
      Object.defineProperty(event, 'pointerType', { value: pointerType });
      win.dispatchEvent(event);
    };

    test('with a mouse: the pointer leaving through the top of the window, not through a side or into the page', () => {
      const win = freshWindow();
      armTriggers([['exit', 0]], win, now, 0, 1, fire);
      mouseOut(win, 300);
      mouseOut(win, 0, win.document.body);
      expect(fired).toEqual([]);
      mouseOut(win, -2);
      expect(fired).toEqual(['exit']);
    });

    test('on a touch screen: a fast scroll back up fires, a slow one does not; the mouse rule is off', () => {
      const win = freshWindow();
      armTriggers([['exit', 0]], win, now, 0, 1, fire);
      pointer(win, 'touch');
      mouseOut(win, -2);
      const scrollTo = (y: number, after: number) => {
        clock += after;
        Object.defineProperty(win, 'scrollY', { configurable: true, value: y });
        win.dispatchEvent(new win.Event('scroll'));
      };
      scrollTo(3000, 0);
      // Slowly up: 100 px every 300 ms.
      for (let y = 2900; y >= 2000; y -= 100) scrollTo(y, 300);
      expect(fired).toEqual([]);
      // Fast: 300 px in 150 ms.
      scrollTo(1900, 100);
      scrollTo(1600, 150);
      expect(fired).toEqual(['exit']);
    });

    test('on a touch screen: back to the tab after 5 s away fires, after less does not', () => {
      const win = freshWindow();
      let hidden = false;
      Object.defineProperty(win.document, 'hidden', { configurable: true, get: () => hidden });
      armTriggers([['exit', 0]], win, now, 0, 1, fire);
      pointer(win, 'touch');
      const away = (ms: number) => {
        hidden = true;
        win.document.dispatchEvent(new win.Event('visibilitychange'));
        clock += ms;
        hidden = false;
        win.document.dispatchEvent(new win.Event('visibilitychange'));
      };
      away(4999);
      expect(fired).toEqual([]);
      away(5000);
      expect(fired).toEqual(['exit']);
    });

    test('with a mouse, the touch signals are off', () => {
      const win = freshWindow();
      let hidden = false;
      Object.defineProperty(win.document, 'hidden', { configurable: true, get: () => hidden });
      armTriggers([['exit', 0]], win, now, 0, 1, fire);
      pointer(win, 'mouse');
      hidden = true;
      win.document.dispatchEvent(new win.Event('visibilitychange'));
      clock += 60_000;
      hidden = false;
      win.document.dispatchEvent(new win.Event('visibilitychange'));
      expect(fired).toEqual([]);
    });
  });
});

describe('memory and caps', () => {
  let clock: number;
  const now = () => clock;
  /** The visitor's consent allows the storage (consent/consent.ts cookiesRead). */
  const always = () => true;

  beforeEach(() => {
    clock = Date.UTC(2026, 10, 25, 12);
    localStorage.clear();
    sessionStorage.clear();
  });

  test('counts the pages of this session in sessionStorage', () => {
    expect(createMemory(window, now, always).countPage()).toBe(1);
    expect(createMemory(window, now, always).countPage()).toBe(2);
    expect(sessionStorage.getItem('dialback:pages')).toBe('2');
  });

  test('once per session, then not again within data-invite-days days', () => {
    let memory = createMemory(window, now, always);
    expect(memory.allowed(1)).toBe(true);
    memory.shown();
    expect(memory.allowed(1)).toBe(false);
    expect(sessionStorage.getItem('dialback:invited')).toBe('1');
    expect(localStorage.getItem('dialback:invited')).toBe(String(clock));
    // Another page of the same session.
    expect(createMemory(window, now, always).allowed(0)).toBe(false);
    // A new session (another visit): the days count.
    sessionStorage.clear();
    memory = createMemory(window, now, always);
    clock += day - 1;
    expect(memory.allowed(1)).toBe(false);
    clock += 1;
    expect(memory.allowed(1)).toBe(true);
    expect(memory.allowed(3)).toBe(false);
    // 0 days: only the session cap.
    expect(memory.allowed(0)).toBe(true);
  });

  test('not for 30 days after the visitor asked for a call', () => {
    const memory = createMemory(window, now, always);
    memory.asked();
    expect(localStorage.getItem('dialback:asked')).toBe(String(clock));
    clock += 30 * day - 1;
    expect(memory.allowed(0)).toBe(false);
    clock += 1;
    expect(memory.allowed(0)).toBe(true);
  });

  test('uses no cookies', () => {
    const memory = createMemory(window, now, always);
    memory.countPage();
    memory.shown();
    memory.asked();
    expect(document.cookie).toBe('');
  });

  test('storage that throws: no exception, and the caps hold for the page', () => {
    const throwing = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    const win = Object.create(window, { localStorage: { value: throwing }, sessionStorage: { get: () => throwing.getItem() } }) as Window;
    const memory = createMemory(win, now, always);
    expect(memory.countPage()).toBe(1);
    expect(memory.countPage()).toBe(2);
    expect(memory.allowed(1)).toBe(true);
    memory.shown();
    expect(memory.allowed(1)).toBe(false);
    expect(memory.allowed(0)).toBe(false);
  });

  test('values that are not numbers (another script, an old version) count as nothing', () => {
    localStorage.setItem('dialback:invited', 'yesterday');
    localStorage.setItem('dialback:asked', '');
    sessionStorage.setItem('dialback:pages', 'many');
    const memory = createMemory(window, now, always);
    expect(memory.allowed(1)).toBe(true);
    expect(memory.countPage()).toBe(1);
  });
});

describe('memory without analytics consent', () => {
  let clock: number;
  const now = () => clock;
  let consent: boolean;
  const allowed = () => consent;
  const storageCalls: string[] = [];

  beforeEach(() => {
    clock = Date.UTC(2026, 10, 25, 12);
    localStorage.clear();
    sessionStorage.clear();
    consent = false;
    storageCalls.length = 0;
    for (const method of ['getItem', 'setItem'] as const) {
      const original = Storage.prototype[method] as (...args: string[]) => unknown;
      vi.spyOn(Storage.prototype, method).mockImplementation(function (this: Storage, ...args: string[]) {
        storageCalls.push(`${method} ${args[0]}`);
        return original.apply(this, args) as never;
      });
    }
  });
  afterEach(() => vi.restoreAllMocks());

  test('neither reads nor writes the storage; the page keeps its caps in memory', () => {
    sessionStorage.setItem('dialback:pages', '4');
    storageCalls.length = 0;
    const memory = createMemory(window, now, allowed);
    expect(memory.countPage()).toBe(1);
    expect(memory.allowed(1)).toBe(true);
    memory.shown();
    memory.asked();
    expect(memory.allowed(0)).toBe(false);
    expect(storageCalls).toEqual([]);
    expect(sessionStorage.getItem('dialback:pages')).toBe('4');
    expect(localStorage.length).toBe(0);
  });

  test('consent given later: the storage is read and written from then on; withdrawn, neither again', () => {
    sessionStorage.setItem('dialback:pages', '2');
    const memory = createMemory(window, now, allowed);
    expect(memory.countPage()).toBe(1);
    consent = true;
    expect(createMemory(window, now, allowed).countPage()).toBe(3);
    memory.shown();
    expect(sessionStorage.getItem('dialback:invited')).toBe('1');
    expect(localStorage.getItem('dialback:invited')).toBe(String(clock));
    consent = false;
    storageCalls.length = 0;
    memory.asked();
    expect(memory.allowed(0)).toBe(false);
    expect(storageCalls).toEqual([]);
    expect(localStorage.getItem('dialback:asked')).toBeNull();
  });
});

describe('availabilityOf (GET /api/status)', () => {
  const status = { available: true, agentsOnline: 2, agentsFree: 1, openNow: true, nextOpenAt: null, source: 'live' as const, windows: [{ opensAt: 'a', closesAt: 'b' }] };

  test('someone free and open: now', () => {
    expect(availabilityOf(status)).toBe('now');
  });
  test('nobody free, or closed, with times to book: later', () => {
    expect(availabilityOf({ ...status, available: false })).toBe('later');
    expect(availabilityOf({ ...status, openNow: false, nextOpenAt: 'x' })).toBe('later');
  });
  test('nobody can answer and nothing can be booked: no invitation', () => {
    expect(availabilityOf({ ...status, available: false, windows: [] })).toBe('');
    expect(availabilityOf({ ...status, openNow: false, windows: [] })).toBe('');
  });
  test('the service unknown (the relay holds the call): now, as the dialog does', () => {
    expect(availabilityOf({ ...status, available: false, source: 'unknown' })).toBe('now');
  });
  test('no answer, or not a status: no invitation', () => {
    expect(availabilityOf(null)).toBe('');
    expect(availabilityOf({ error: { code: 'origin_not_allowed' } } as never)).toBe('');
  });
});
