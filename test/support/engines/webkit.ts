// WebKitGTK through selenium-webdriver: Debian's webkit2gtk-driver (WebKitWebDriver) drives
// MiniBrowser on an Xvfb display the engine starts and stops itself.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Builder, Key, Origin, type WebDriver } from 'selenium-webdriver';
import { deadUrl } from '../listen.ts';
import { callSource, type Engine, type EnginePage, type KeyName } from './engine.ts';
import { startXvfb, stopProcess } from './xvfb.ts';

const driverPath = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
const miniBrowser = ['/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser'];

const keys: Record<Exclude<KeyName, 'Shift+Tab'>, string> = {
  Tab: Key.TAB,
  Enter: Key.ENTER,
  Escape: Key.ESCAPE,
  ArrowDown: Key.ARROW_DOWN,
  ArrowRight: Key.ARROW_RIGHT,
  Space: Key.SPACE,
};

async function waitForDriver(url: string, driver: { exitCode: number | null }): Promise<void> {
  const end = Date.now() + 10_000;
  for (;;) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${driver.exitCode}`);
    const ready = await fetch(url + '/status').then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    if (Date.now() > end) throw new Error('WebKitWebDriver did not answer /status within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sizes the window so that the page's viewport is exactly width×height; false where MiniBrowser's
 * window cannot get that narrow. The viewport follows a resize with a delay (the web process hears
 * of it later than the driver answers), so the window is corrected from what the page last saw
 * until the two agree: one setRect and one reading at times decided too early that a desktop
 * size could not be reached.
 */
async function sizeWindow(driver: WebDriver, width: number, height: number): Promise<boolean> {
  const end = Date.now() + 5_000;
  let refused = 0;
  for (;;) {
    const [innerWidth, innerHeight] = (await driver.executeScript('return [innerWidth, innerHeight]')) as [number, number];
    if (innerWidth === width && innerHeight === height) return true;
    const outer = await driver.manage().window().getRect();
    const wanted = { width: outer.width + width - innerWidth, height: outer.height + height - innerHeight };
    const got = await driver.manage().window().setRect(wanted);
    // Asked to get narrower and stayed wider, three times in a row: the window's narrowest.
    refused = innerWidth > width && got.width > wanted.width ? refused + 1 : 0;
    if (refused === 3) return false;
    if (Date.now() > end) throw new Error(`the WebKit window did not give the page a ${width}×${height} viewport within 5 s (it has ${innerWidth}×${innerHeight})`);
    await pause(100);
  }
}

/** The page's own viewport, or a frame of exactly that size where the window cannot get as narrow. */
async function fitViewport(driver: WebDriver, url: string, width: number, height: number): Promise<void> {
  await driver.get('about:blank');
  if (await sizeWindow(driver, width, height)) return void (await driver.get(url));
  // MiniBrowser's toolbar keeps its window at least 447 px wide: a phone-sized page then lives in a
  // borderless iframe at the top-left corner, a viewport of its own (media queries, position: fixed
  // and visualViewport all answer for the frame), so points and keys mean the same as without it.
  // The page around it is of the frame's own origin (any address there, its content replaced):
  // WebKit ignores focus() by script in a cross-origin frame the visitor has not interacted with.
  await driver.get(new URL('/viewport-frame', url).href);
  await driver.executeScript(
    `const frame = document.createElement('iframe');
     frame.style.cssText = 'position:fixed;top:0;left:0;display:block;border:0;width:${width}px;height:${height}px';
     frame.src = arguments[0];
     document.documentElement.replaceChildren(frame);`,
    url,
  );
  await driver.switchTo().frame(0);
  const end = Date.now() + 10_000;
  while (!(await driver.executeScript("return location.href !== 'about:blank' && document.readyState === 'complete'"))) {
    if (Date.now() > end) throw new Error('the framed page did not load within 10 s');
    await pause(50);
  }
}

export async function launchWebKitEngine(): Promise<Engine> {
  if (!existsSync(driverPath)) throw new Error("WebKitWebDriver not found: install Debian's `webkit2gtk-driver` package (see .ci/run) or set WEBKIT_DRIVER_PATH");
  const binary = miniBrowser.find((p) => existsSync(p));
  if (!binary) throw new Error("WebKitGTK's MiniBrowser not found: install Debian's `webkit2gtk-driver` package (see .ci/run)");
  const display = await startXvfb();
  const driverUrl = await deadUrl();
  const child = spawn(driverPath, [`--port=${new URL(driverUrl).port}`, '--host=127.0.0.1'], { env: { ...process.env, DISPLAY: display.name }, stdio: 'ignore' });
  let driver: WebDriver | undefined;
  const stopAll = async () => {
    await driver?.quit().catch(() => {});
    await stopProcess(child);
    await display.stop();
  };
  try {
    await waitForDriver(driverUrl, child);
    driver = await new Builder()
      .usingServer(driverUrl)
      .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary, args: ['--automation'] } })
      .build();
  } catch (error) {
    await stopAll();
    throw error;
  }
  const d = driver;
  return {
    name: 'webkit',
    async open(url, { width, height }) {
      // The window is made the active one first: Xvfb runs no window manager, so which window has
      // the keyboard follows the pointer. (The focus() left on <body> that this was first written
      // for came from the phone-size frame chosen by mistake for a desktop page: see sizeWindow.)
      await d.switchTo().window(await d.getWindowHandle());
      await fitViewport(d, url, width, height);
      const adapter: EnginePage = {
        async run(fn, arg) {
          // The result travels as one JSON string made in the page: WebKitWebDriver's own serializer
          // walks objects with for…in and honours toJSON, so on the hostile pages (Object.prototype
          // extended, Prototype.js's Array.prototype.toJSON) it fails. The page's toJSON methods are
          // set aside while the string is made.
          const json = (await d.executeAsyncScript(
            `const done = arguments[arguments.length - 1], source = arguments[0], arg = arguments[1];
             const send = (result) => {
               const saved = [Array.prototype, String.prototype].map((p) => [p, Object.getOwnPropertyDescriptor(p, 'toJSON')]);
               for (const [p] of saved) delete p.toJSON;
               try { done(JSON.stringify(result)); } finally { for (const [p, d] of saved) if (d) Object.defineProperty(p, 'toJSON', d); }
             };
             Promise.resolve().then(() => (0, eval)(source)(arg)).then((v) => send({ v: v === undefined ? null : v }), (e) => send({ e: String((e && e.stack) || e) }));`,
            callSource(fn),
            arg ?? null,
          )) as string;
          const result = JSON.parse(json) as { v?: unknown; e?: string };
          if (result.e) throw new Error(result.e);
          return result.v as never;
        },
        clickAt: (x, y) =>
          d
            .actions({ async: true })
            .move({ x: Math.round(x), y: Math.round(y), origin: Origin.VIEWPORT })
            .click()
            .perform(),
        press: (key) =>
          key === 'Shift+Tab'
            ? d.actions({ async: true }).keyDown(Key.SHIFT).sendKeys(Key.TAB).keyUp(Key.SHIFT).perform()
            : d.actions({ async: true }).sendKeys(keys[key]).perform(),
        type: (text) => d.actions({ async: true }).sendKeys(text).perform(),
        // One window for the whole file: leave the frame and the page behind.
        close: async () => {
          await d.switchTo().defaultContent();
          await d.get('about:blank');
        },
      };
      return adapter;
    },
    close: stopAll,
  };
}
