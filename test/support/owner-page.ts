// The owner view in real Chromium, for the owner-view tests: a relay and simulator with a test
// clock (a known mix of visits: answered, missed, refused), a page opened with the owner's token,
// and what a page must never do under its CSP recorded (violations, console errors).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser.ts';
import { callsSettled, type Crm, HELD_ENV, manualTimers, SECRET, startCrm, testClock, until } from './held-calls.ts';
import { postCallback } from './post-callback.ts';
import { startSystem, type System } from './system.ts';

export const OWNER_TOKEN = 'owner_e2e_report_0123456789abcdef';
/** Wednesday 2026-11-25 12:00 in Kyiv: the relay's and the simulator's now. */
export const NOON = new Date('2026-11-25T10:00:00Z');

export interface OwnerSystem {
  system: System;
  /** The lead webhook's receiver: with it the relay follows each call to its outcome. */
  crm: Crm;
  clock: ReturnType<typeof testClock>;
  /** The callback ids of the known mix, by what happened to them. */
  leads: { answered: string[]; missed: string; failed: string };
}

/** A visitor's call now, waited for until its call has ended in the simulator. */
async function visit(s: System, phone: string, attribution: Record<string, string>, pageUrl: string) {
  const res = await postCallback(s, { phone, attribution, pageUrl });
  if (res.status === 202) await callsSettled(s, phone);
  return (res.json as { requestId?: string }).requestId ?? '';
}

/** Two answered calls from a google campaign, one nobody answered (facebook), one the service refused (bing). `env` adds settings (PUBLIC_URL, say). */
export async function startOwnerSystem(env: Record<string, string> = {}): Promise<OwnerSystem> {
  const clock = testClock(NOON);
  const crm = await startCrm(clock);
  const system = await startSystem(
    { ...HELD_ENV, OWNER_TOKEN, TIMEZONE: 'Europe/Kyiv', REDIAL_ATTEMPTS: '0', REPORT_TALK_SECONDS: '1', LEAD_WEBHOOK_URL: crm.url, LEAD_WEBHOOK_SECRET: SECRET, ...env },
    {
      simulator: { timing: { agentAnswerMs: 10, visitorRingMs: 10, talkMs: 1100 }, now: clock.now, outboundBanPrefixes: ['38050777'] },
      now: clock.now,
      runner: { timers: manualTimers(clock) },
    },
  );
  const spring = { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'spring' };
  const answered = [await visit(system, '+380501110001', spring, 'https://shop.example/sofa'), await visit(system, '+380501110002', spring, 'https://shop.example/sofa')];
  const missed = await visit(system, '+380501110099', { utmSource: 'facebook', utmMedium: 'social' }, 'https://shop.example/chair');
  await postCallback(system, { phone: '+380507770001', attribution: { utmSource: 'bing' }, pageUrl: 'https://shop.example/' });
  // The followed calls' outcomes are read from the call log once their ring time has passed: the
  // clock moves on until the relay has read them all.
  const report = async () =>
    (await (await fetch(`${system.relayUrl}/owner/api/leads?from=2026-11-25&to=2026-11-25`, { headers: { 'x-owner-token': OWNER_TOKEN } })).json()) as {
      leads: Array<{ callbackId: string; utmSource: string | null; outcome: string | null }>;
    };
  const leads = await until(async () => {
    clock.advance(30_000);
    await system.relay.runner.runOnce();
    const all = (await report()).leads;
    return all.filter((l) => l.outcome !== null).length === 4 && all;
  }, 'four leads settled');
  const failed = leads.find((l) => l.utmSource === 'bing')!.callbackId;
  return { system, crm, clock, leads: { answered, missed, failed } };
}

export interface WatchedPage {
  page: Page;
  /** CSP violations and console errors, as the page met them. */
  problems(): Promise<string[]>;
}

/** Opens /owner with the token (and a hash, e.g. #lead=…) in a fresh context of its own. */
export async function openOwner(browser: Browser, relayUrl: string, options: { hash?: string; width?: number } = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(`${relayUrl}/owner?token=${OWNER_TOKEN}${options.hash ?? ''}`);
  return {
    page,
    async problems() {
      const csp = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
      return [...csp, ...errors];
    },
  };
}

/** One owner system and one Chromium for a test file, started before its tests and closed after. */
export function ownerSuite(): { readonly owner: OwnerSystem; readonly browser: Browser } {
  let owner: OwnerSystem | undefined;
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  beforeAll(async () => {
    owner = await startOwnerSystem();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.dispose();
    await owner?.system.close();
    await owner?.crm.close();
  });
  return {
    get owner() {
      return owner!;
    },
    get browser() {
      return browser!;
    },
  };
}
