// The owner's actions from another page of the owner's own site, in real
// Chromium: the relay at http://calls.example.test (its PUBLIC_URL) and a page of the same site at
// http://blog.example.test, both served from loopback ports through Chromium's host resolver. The
// owner opened /owner?token=… once, so the SameSite=Strict session cookie is set, and SameSite does
// not tell two origins of one site apart. The blog page then sends a credentialed no-cors fetch and
// a plain HTML form to every state-changing owner route (and tries DELETE): each is the unknown
// path's 404 and nothing happens. The owner view itself, with its cookie alone (no token header),
// still does each of them. Twice: as plain http, where Chromium sends Origin but no Fetch Metadata,
// and as a secure context, where it sends Sec-Fetch-Site too (and a cross-origin GET is refused).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { callsTo } from '../support/held-calls.ts';
import { type Listening, listen } from '../support/listen.ts';
import { OWNER_TOKEN, type OwnerSystem, openOwner, startOwnerSystem } from '../support/owner-page.ts';
import { postCallback } from '../support/post-callback.ts';

const CALLS = 'http://calls.example.test';
const BLOG = 'http://blog.example.test';
const MISSED_NUMBER = '+380501110099';
const ANSWERED_NUMBER = '+380501110002';
const ERASED_NUMBER = '+380501110001';

interface Answer {
  method: string;
  path: string;
  status: number;
  token: boolean;
}

/** Every answer the relay gave, as it wrote it: method, path, status, and whether a token header came. */
function recordAnswers(server: Server): Answer[] {
  const answers: Answer[] = [];
  server.on('request', (req: IncomingMessage, res) =>
    res.once('finish', () => answers.push({ method: req.method ?? '', path: req.url ?? '', status: res.statusCode, token: req.headers['x-owner-token'] !== undefined })),
  );
  return answers;
}

const hostPort = (url: string) => new URL(url).host;
const owner = (s: OwnerSystem, path: string, init: RequestInit = {}) => fetch(`${s.system.relayUrl}${path}`, { ...init, headers: { 'x-owner-token': OWNER_TOKEN } });
const leadsOfDay = async (s: OwnerSystem) =>
  (await (await owner(s, '/owner/api/leads?from=2026-11-25&to=2026-11-25')).json()) as { pending: Array<{ callbackId: string }>; leads: Array<{ requestedAs: string }> };
const numberData = async (s: OwnerSystem, e164: string) =>
  (await (await owner(s, `/owner/api/numbers/${encodeURIComponent(e164)}`)).json()) as { calls: unknown[]; neverCall: { listed: boolean } };

/** What the blog page does with the owner's browser: no-cors fetches and forms (each into a frame of its own), and DELETE. */
async function attack(page: Page, targets: { posts: string[]; deletes: string[]; gets: string[] }) {
  await page.evaluate(async ({ posts, deletes, gets }) => {
    const form = (action: string) =>
      new Promise<void>((resolve) => {
        const frame = document.createElement('iframe');
        frame.name = `frame-${Math.random().toString(36).slice(2)}`;
        document.body.append(frame);
        frame.addEventListener('load', () => resolve(), { once: true });
        const f = document.createElement('form');
        f.method = 'POST';
        f.action = action;
        f.target = frame.name;
        document.body.append(f);
        f.submit();
      });
    for (const url of posts) {
      await fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include' }).catch(() => undefined);
      await form(url);
    }
    for (const url of deletes) {
      // A DELETE needs a preflight, which the relay never answers for another origin; no-cors refuses DELETE outright.
      await fetch(url, { method: 'DELETE', credentials: 'include' }).catch(() => undefined);
      await fetch(url, { method: 'DELETE', mode: 'no-cors', credentials: 'include' }).catch(() => undefined);
    }
    for (const url of gets) await fetch(url, { mode: 'no-cors', credentials: 'include' }).catch(() => undefined);
  }, targets);
}

describe.each([
  ['plain http (Origin, no Fetch Metadata)', false],
  ['a secure context (Origin and Sec-Fetch-Site)', true],
])('owner actions from another origin of the same site: %s', (_name, secure) => {
  let s: OwnerSystem;
  let blog: Listening;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let answers: Answer[];
  let pending: string;

  beforeAll(async () => {
    s = await startOwnerSystem({ PUBLIC_URL: CALLS });
    answers = recordAnswers(s.system.relay.server);
    blog = await listen(createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Blog</title><body></body>')));
    const rules = `MAP calls.example.test ${hostPort(s.system.relayUrl)}, MAP blog.example.test ${hostPort(blog.url)}`;
    browser = await launchChromium({ args: [`--host-resolver-rules=${rules}`, ...(secure ? [`--unsafely-treat-insecure-origin-as-secure=${CALLS},${BLOG}`] : [])] });
    // Past the missed call's cooldown, so a call-back would be placed; and one booking to cancel.
    s.clock.advance(150_000);
    const booked = await postCallback(s.system, { phone: '+380501110055', scheduledFor: new Date(s.clock.ms + 3_600_000).toISOString() });
    expect(booked.json.status).toBe('scheduled');
    pending = booked.json.requestId!;
  }, 60_000);

  afterAll(async () => {
    await browser?.dispose();
    await blog?.close();
    await s?.system.close();
    await s?.crm.close();
  });

  test("a blog page's fetches and forms to every state-changing owner route are the unknown path's 404, and nothing happens", async () => {
    const { page: ownerPage } = await openOwner(browser, CALLS);
    try {
      await ownerPage.locator(`#lead-${s.leads.missed}`).waitFor();
      const cookies = await ownerPage.context().cookies(CALLS + '/owner');
      expect(cookies.map((c) => [c.name, c.sameSite])).toEqual([['dialback_owner', 'Strict']]);
      const page = await ownerPage.context().newPage();
      await page.goto(`${BLOG}/`);
      const paths = {
        posts: [`/owner/api/leads/${s.leads.missed}/call-back`, `/owner/api/leads/${s.leads.answered[1]}/never-call`, `/owner/api/leads/${pending}/cancel`],
        deletes: [`/owner/api/numbers/${encodeURIComponent(ERASED_NUMBER)}`],
        gets: secure ? ['/owner/api/leads?from=2026-01-01&to=2026-11-25', '/owner/api/report?from=2025-11-25&to=2026-11-25'] : [],
      };
      const from = answers.length;
      await attack(page, { posts: paths.posts.map((p) => CALLS + p), deletes: paths.deletes.map((p) => CALLS + p), gets: paths.gets.map((p) => CALLS + p) });
      const attacked = answers.slice(from).filter((a) => !a.path.startsWith('/owner/api/agents') && !a.path.startsWith('/owner/api/calls'));
      // Each POST twice (fetch, form); each DELETE only as its preflight; each GET once.
      const expected = [
        ...paths.posts.flatMap((path) => [
          { method: 'POST', path, status: 404 },
          { method: 'POST', path, status: 404 },
        ]),
        ...paths.deletes.map((path) => ({ method: 'OPTIONS', path, status: 404 })),
        ...paths.gets.map((path) => ({ method: 'GET', path, status: 404 })),
      ];
      const fromBlog = (a: Answer) => [...paths.posts, ...paths.deletes, ...paths.gets].includes(a.path);
      expect(attacked.filter(fromBlog).map(({ method, path, status }) => ({ method, path, status }))).toEqual(expected);
      await page.close();
    } finally {
      await ownerPage.context().close();
    }
    // Nothing was done: no call placed or due, the number not listed, the booking still waiting, the number's data kept.
    const calls = callsTo(s.system, MISSED_NUMBER).length;
    await s.system.relay.runner.runOnce();
    expect(callsTo(s.system, MISSED_NUMBER)).toHaveLength(calls);
    const day = await leadsOfDay(s);
    expect(day.leads.filter((l) => l.requestedAs === 'owner')).toEqual([]);
    expect(day.pending.map((l) => l.callbackId)).toContain(pending);
    expect((await numberData(s, ANSWERED_NUMBER)).neverCall.listed).toBe(false);
    expect((await numberData(s, ERASED_NUMBER)).calls.length).toBeGreaterThan(0);
  }, 60_000);

  test('the owner view itself, with its session cookie alone, still cancels, calls back and lists a number', async () => {
    const { page, problems } = await openOwner(browser, CALLS);
    try {
      // The token leaves the tab: from here on only the cookie says who this is.
      await page.evaluate(() => sessionStorage.clear());
      await page.goto(`${CALLS}/owner`);
      const from = answers.length;

      await page.getByRole('button', { name: /^Cancel the call to / }).click();
      await expect.poll(() => page.locator('#leads-status').textContent()).toMatch(/^The call to \+380 50 \*\*\* \*\*55 is cancelled\.$/);

      await page.getByRole('button', { name: /^Call back now \+380 50 \*\*\* \*\*99$/ }).click();
      const status = page.locator('#action-status');
      await expect.poll(() => status.textContent()).toBe('Calling +380 50 *** **99 back: the call is placed now, within office hours and the number limits.');

      await page.locator(`#never-${s.leads.answered[1]}`).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Never call this number' }).click();
      await expect.poll(() => status.textContent()).toBe('+380 50 *** **02 is on the never-call list: it will not be called again.');

      const acted = answers.slice(from).filter((a) => a.method === 'POST');
      expect(acted.map((a) => [a.status, a.token])).toEqual([
        [200, false],
        [202, false],
        [200, false],
      ]);
      expect(await problems()).toEqual([]);
    } finally {
      await page.context().close();
    }
    const calls = callsTo(s.system, MISSED_NUMBER).length;
    expect(await s.system.relay.runner.runOnce()).toBe(1);
    expect(callsTo(s.system, MISSED_NUMBER)).toHaveLength(calls + 1);
    expect((await numberData(s, ANSWERED_NUMBER)).neverCall.listed).toBe(true);
    expect((await leadsOfDay(s)).pending.map((l) => l.callbackId)).not.toContain(pending);
  }, 60_000);
});
