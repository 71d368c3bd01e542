// One thin interface over three ways of driving a real browser, so each cross-engine scenario is
// written once: Chromium through playwright-core (as the main suite), Firefox ESR through
// puppeteer-core over WebDriver BiDi, WebKitGTK through selenium-webdriver and WebKitWebDriver.
// Only what a visitor does goes through it: real mouse clicks at a point, real key presses, typing;
// everything the test reads is a function run in the page (see in-page.ts).

export type EngineName = 'chromium' | 'firefox' | 'webkit';

/** Keys the scenarios press; `Shift+Tab` is the chord. */
export type KeyName = 'Tab' | 'Shift+Tab' | 'Enter' | 'Escape';

export interface EnginePage {
  /**
   * Runs `fn` in the page (an async function is awaited) and returns its JSON result. `fn` must be
   * self-contained: it is sent as source text.
   */
  run<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<Awaited<T>>;
  /** A real mouse click at a point of the viewport (CSS pixels). */
  clickAt(x: number, y: number): Promise<void>;
  press(key: KeyName): Promise<void>;
  /** Types text into whatever has focus, key by key. */
  type(text: string): Promise<void>;
  close(): Promise<void>;
}

export interface Engine {
  name: EngineName;
  /** Opens `url` in a fresh page whose viewport is `width`×`height` CSS pixels. */
  open(url: string, viewport: { width: number; height: number }): Promise<EnginePage>;
  /** Quits the browser and whatever the engine started for it (driver, X server). */
  close(): Promise<void>;
}

/** Runs `source` (a function expression) with `arg` inside the page; shared by the adapters. */
export function callSource(fn: (arg: never) => unknown): string {
  return `(${fn.toString()})`;
}

/** How long a scenario waits for a condition in the page before it fails. */
export const waitMs = 10_000;

/** Polls `check` in the page until it returns a truthy value; fails with `what` after waitMs. */
export async function waitFor<T, A = undefined>(page: EnginePage, what: string, check: (arg: A) => T, arg?: A, timeout = waitMs): Promise<NonNullable<T>> {
  const end = Date.now() + timeout;
  let last: T | undefined;
  for (;;) {
    last = (await page.run(check, arg)) as T;
    if (last) return last as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
