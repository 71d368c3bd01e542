// The invitation's logic in jsdom, on a clock the test moves: which data-invite entries are
// triggers, what each trigger listens to, and what the relay's status makes of it. The caps and
// their memory: invite-memory.test.ts.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { availabilityOf } from '../../widget/src/invite/availability.ts';
import { armTriggers, parseTriggers, type TriggerName } from '../../widget/src/invite/triggers.ts';

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
