// What the cross-engine scenarios do with a page, in any engine: click a box, press a key and wait
// for what it should do, recognise the open dialog and an accepted call; and the relay's limits
// set out of their way.
import type { EnginePage, KeyName } from './engine.ts';
import { centre, until, type WidgetSnapshot } from './in-page.ts';

/** Limits no scenario can reach: every page of every engine calls from 127.0.0.1, many times over. */
export const UNLIMITED = {
  LIMIT_NUMBER_COOLDOWN_SECONDS: '0',
  LIMIT_NUMBER_DAILY: '1000',
  LIMIT_NUMBER_IN_FLIGHT: '10',
  LIMIT_CLIENT_RATE: '1000',
  LIMIT_CLIENT_DAILY: '1000',
  LIMIT_CLIENT_NUMBERS_DAILY: '32',
  LIMIT_CLIENT_REFUSALS: '1000',
  LIMIT_PREFIX_RATE: '1000',
  // Every page of every engine calls from 127.0.0.1: its /24 and the surge defence must not count them.
  LIMIT_NETWORK_IPV4_24_HOURLY: '0',
  LIMIT_NETWORK_IPV4_24_DAILY: '0',
  LIMIT_NETWORK_REFUSALS: '65000',
  SURGE_CALLS: '0',
  SURGE_CAP_PERCENT: '0',
};

export async function click(page: EnginePage, box: WidgetSnapshot['launcher'], what: string) {
  const [x, y] = centre(box, what);
  await page.clickAt(x, y);
}

/** Presses `key` and waits until the focus moved (or the dialog changed) as `expected` says. */
export async function press(page: EnginePage, key: KeyName, what: string, expected: (s: WidgetSnapshot) => unknown) {
  await page.press(key);
  return until(page, `${what} after ${key}`, expected);
}

export const opened = (s: WidgetSnapshot) => s.open && s.phone;
export const accepted = (digits: string) => (s: WidgetSnapshot) => s.text.includes(`We will call +380 ${digits}.`);
