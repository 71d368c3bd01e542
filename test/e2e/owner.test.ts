// The owner view in real Chromium: agents update live, a call placed through the relay shows with
// its utm source and client id and is marked as the widget's, and the Auth-key appears nowhere the
// browser can see. (The lead report, its chart and actions: owner-report.test.ts.)
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Response as PwResponse } from 'playwright-core';
import { launchChromium } from '../support/browser.ts';
import { postCallback } from '../support/post-callback.ts';
import { startSystem, type System } from '../support/system.ts';

const OWNER_TOKEN = 'owner_e2e_0123456789abcdef0123456789abcdef';
let system: System;
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  system = await startSystem({ OWNER_TOKEN }, { simulator: { timing: { agentAnswerMs: 50, visitorRingMs: 50, talkMs: 50 } } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.dispose();
  await system?.close();
});

test('the owner sees agents live and the widget call with its attribution', async () => {
  const now = Date.now();
  system.sim.seedCalls(12, { from: new Date(now - 4 * 86400_000), to: new Date(now - 2 * 3600_000), overrides: { utmSource: 'facebook' } });
  const placed = await postCallback(
    system,
    { phone: '050 123 45 67', attribution: { utmSource: 'newsletter', utmMedium: 'email', clientId: '1907690628.1747750782' } },
    { origin: system.config.http.allowedOrigins[0]! },
  );
  expect(placed.status).toBe(202);

  const context = await browser.newContext();
  const page = await context.newPage();
  const bodies: string[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (res: PwResponse) => {
    pending.push(
      res.text().then(
        (t) => void bodies.push(`${res.url()}\n${t}`),
        () => {},
      ),
    );
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });

  try {
    await page.goto(`${system.relayUrl}/owner?token=${OWNER_TOKEN}`);
    // The token leaves the address bar at once.
    await expect.poll(() => page.url()).toBe(`${system.relayUrl}/owner`);

    const agents = page.locator('#agents');
    await expect.poll(() => agents.locator('[data-login]').count(), { timeout: 10_000 }).toBe(2);
    expect(await agents.locator('[data-login="manager1"]').getAttribute('data-state')).toBe('free');

    // Live: an agent coming online appears without a reload.
    system.sim.agents.setOnline('manager3', true);
    await expect.poll(() => agents.locator('[data-login="manager3"]').count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.locator('#agents-summary').textContent()).toMatch(/^3 online/);

    const widgetRow = page.locator('#calls tbody tr[data-widget="true"]').first();
    await expect.poll(() => widgetRow.count(), { timeout: 10_000 }).toBe(1);
    const rowText = (await widgetRow.textContent()) ?? '';
    expect(rowText).toContain('newsletter / email');
    expect(rowText).toContain('1907690628.1747750782');
    expect(rowText).toContain('Widget');
    expect(rowText).not.toContain('501234567');
    expect(rowText).toContain('+380 50 *** **67');
    // One lead in the period, said in the singular (the count and its noun agree).
    await expect.poll(() => page.locator('#period-leads-summary').textContent()).toMatch(/^1 lead, /);
    const calls = (await page.locator('#calls-summary').textContent()) ?? '';
    const listed = Number(/^\d+/.exec(calls)?.[0]);
    expect(calls.startsWith(`${listed} latest ${listed === 1 ? 'call' : 'calls'}, `)).toBe(true);

    // Nothing the browser received holds the Auth-key, nor does the page.
    await Promise.all(pending);
    expect(bodies.some((b) => b.includes('/owner/api/calls'))).toBe(true);
    for (const body of bodies) expect(body).not.toContain(system.sim.authKey);
    expect(await page.content()).not.toContain(system.sim.authKey);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}, 60_000);

test('without the token the page shows nothing', async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const res = await page.goto(`${system.relayUrl}/owner`);
    expect(res?.status()).toBe(404);
  } finally {
    await context.close();
  }
});

test('the owner sees a booked call among the pending leads and cancels it', async () => {
  const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
  // A page of the site the request comes from: the relay keeps no other.
  const origin = system.config.http.allowedOrigins[0]!;
  const booked = await postCallback(
    system,
    { phone: '050 222 33 44', scheduledFor: inAnHour, pageUrl: `${origin}/sofa`, attribution: { utmSource: 'google', utmMedium: 'cpc' } },
    { origin },
  );
  expect(booked.status).toBe(202);
  const { requestId } = booked.json as { requestId: string };

  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${system.relayUrl}/owner?token=${OWNER_TOKEN}`);
    const row = page.locator(`#leads tbody tr[data-callback="${requestId}"]`);
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('Booked for this time');
    expect(text).toContain('google / cpc');
    expect(text).toContain('/sofa');
    expect(text).not.toContain('502223344');

    await row.getByRole('button', { name: /Cancel the call to/ }).click();
    await expect.poll(() => page.locator('#leads-status').textContent()).toMatch(/is cancelled/);
    await expect.poll(() => row.count()).toBe(0);
    expect(await system.relay.app.stores.jobs.get(requestId)).toMatchObject({ state: 'cancelled' });
  } finally {
    await context.close();
  }
}, 60_000);
