// The invitation's caps and their memory in jsdom, on a clock the test moves: kept in the site's
// storage with the visitor's analytics consent, in the page only without it.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createMemory } from '../../widget/src/invite/memory.ts';

const day = 86_400_000;

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
