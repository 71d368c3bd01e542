// The frame of an invitation test file (test/e2e/invite-*.test.ts): the host site and the relays the
// file asks for, started before its tests and closed after, the host pages with the widget and the
// invitation's recorders, a fresh tab per scenario, and the moves every invitation file makes.
import { afterAll, beforeAll, expect } from 'vitest';
import { startHostSite, type HostSite, type PageOptions } from '../host-site.ts';
import { startSystem, type System } from '../system.ts';
import type { EngineName, EnginePage } from './engine.ts';
import { errorRecorder } from './in-page.ts';
import { inviteRecorder, navigate, settle, untilInvite, type InviteSnapshot } from './invite-page.ts';
import { UNLIMITED } from './moves.ts';
import { useEngine } from './use-engine.ts';

export const desktop = { width: 1280, height: 800 };
export const nowText = 'Questions? We can call you back right now.';
export const laterText = 'Questions? We are busy now: book a call for later.';
export const day = 86_400_000;
export const tall = '<div style="height:5000px">a long page</div>';

/**
 * The relays a file may ask for: `open` someone free now; `busy` nobody free (every agent offline),
 * open hours with times to book; `shut` closed, and the only open day is beyond what can be booked
 * (SCHEDULE_MAX_DAYS=1).
 */
export type RelayName = 'open' | 'busy' | 'shut';

export interface InviteSuite {
  host: HostSite;
  relays: Partial<Record<RelayName, System>>;
}

/** WORKING_HOURS of one day three days from now: closed now, and nothing to book within one day. */
function hoursInThreeDays(): string {
  const names = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const dayName = names[new Date(Date.now() + 3 * day).getUTCDay()];
  return `${dayName} 10:00-11:00`;
}

/** Starts the host site and the named relays before the file's tests; the object is filled in then. */
export function useInviteSuite(names: readonly RelayName[] = ['open']): InviteSuite {
  const suite = { relays: {} } as InviteSuite;
  beforeAll(async () => {
    suite.host = await startHostSite();
    const env = { ALLOWED_ORIGINS: suite.host.url, ...UNLIMITED };
    const agents = (online: boolean) => Array.from({ length: 3 }, (_, i) => ({ login: `manager${i + 1}`, number: `38044111000${i + 1}`, online }));
    const start = {
      open: () => startSystem(env, { simulator: { agents: agents(true), timing: { agentAnswerMs: 10, visitorRingMs: 10, talkMs: 10 } } }),
      busy: () => startSystem(env, { simulator: { agents: agents(false) } }),
      shut: () => startSystem({ ...env, WORKING_HOURS: hoursInThreeDays(), TIMEZONE: 'UTC', SCHEDULE_MAX_DAYS: '1' }, { simulator: { agents: agents(true) } }),
    };
    await Promise.all(names.map(async (name) => (suite.relays[name] = await start[name]())));
  }, 30_000);
  afterAll(async () => {
    await Promise.all(Object.values(suite.relays).map((relay) => relay.close()));
    await suite.host?.close();
  });
  return suite;
}

let pageCount = 0;

/** A host page with the widget; `data` are the script tag's attributes (besides lang en, country UA). */
export function invitePage(suite: InviteSuite, data: Record<string, string>, options: Omit<PageOptions, 'relayUrl' | 'data'> & { relay?: RelayName; path?: string } = {}): string {
  const { relay = 'open', path = `/page-${++pageCount}`, ...rest } = options;
  return suite.host.page(path, { ...rest, relayUrl: suite.relays[relay]!.relayUrl, data, head: errorRecorder + inviteRecorder + (rest.head ?? '') });
}

/** The engine for a describe block; `withPage` opens a fresh tab whose storage for the host site is empty, then `url` in it. */
export function useInviteEngine(suite: InviteSuite, name: EngineName) {
  const engine = useEngine(name);
  return (url: string, scenario: (page: EnginePage) => Promise<void>) =>
    engine.withPage(suite.host.page('/blank', { relayUrl: suite.relays.open!.relayUrl, noScript: true }), desktop, async (page) => {
      await page.run(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
      await navigate(page, url);
      await scenario(page);
    });
}

/**
 * Focus on the page's own button, as a visitor puts it there before the step under test. WebKitGTK
 * at times leaves a focus() made right after a page load unapplied: <body> is the active element in
 * the next task, before any key was pressed (seen in 1 of 5 runs of the WebKit tests, with no widget
 * code run in between). So it is made again until a later task finds it held.
 */
export async function focusHostButton(page: EnginePage) {
  const end = Date.now() + 5_000;
  for (;;) {
    await page.run(() => document.getElementById('host-button')!.focus());
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (await page.run(() => document.activeElement?.id === 'host-button')) return;
    if (Date.now() > end) throw new Error("the page's own button would not keep focus");
  }
}

export const shown = (s: InviteSnapshot) => s.text !== null;

/** Stays without a bubble for `ms` (the idle import, the trigger's own wait and the status request are done by then). */
export async function expectNoInvite(page: EnginePage, why: string, ms = 1500) {
  await settle(page, ms);
  const s = await untilInvite(page, why, () => true);
  expect(s.text, why).toBeNull();
  expect(s.events, why).toEqual([]);
  return s;
}

/** The page's dialback('invite'). */
export const askForInvite = (page: EnginePage) => page.run(() => (window as unknown as { dialback(c: string): void }).dialback('invite'));
