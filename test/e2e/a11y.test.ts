// Accessibility in real Chromium: axe-core (WCAG 2.1 A and AA rules) with the dialog open in every
// state, and the keyboard: focus moves in, stays in, and Esc returns it to the launcher.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser.ts';
import { startSystem, type System } from '../support/system.ts';
import { axeViolations } from '../support/axe.ts';
import { hoursClosedNow } from '../support/office-hours.ts';
import { deadUrl } from '../support/listen.ts';
import { startHostSite, type HostSite } from '../support/host-site.ts';
import { widget } from '../support/widget-page.ts';

let host: HostSite;
let system: System;
let closedSystem: System;
let browser: Browser & { dispose(): Promise<void> };

beforeAll(async () => {
  host = await startHostSite();
  // No re-dials: the missed call's view, with "Try again", is final (with one, the widget shows the re-dial to come).
  system = await startSystem(
    { ALLOWED_ORIGINS: host.url, OUTCOME_POLL_MS: '250', REDIAL_ATTEMPTS: '0' },
    { simulator: { timing: { agentAnswerMs: 400, visitorRingMs: 1200, talkMs: 1500 } } },
  );
  // An office that is never open now: every day's hours lie in the past or the future of "now".
  closedSystem = await startSystem({ ALLOWED_ORIGINS: host.url, WORKING_HOURS: hoursClosedNow('UTC'), TIMEZONE: 'UTC' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.dispose();
  await system?.close();
  await closedSystem?.close();
  await host?.close();
});

async function openPage(path: string, data: Record<string, string> = {}, relayUrl = system.relayUrl): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(host.page(path, { relayUrl, data: { phone: '+380 44 111 22 33', ...data } }));
  const w = widget(page);
  await w.launcher.click();
  await w.dialog.waitFor();
  return page;
}

async function expectNoViolations(page: Page, state: string) {
  expect(await axeViolations(page), state).toEqual([]);
}

describe('axe-core: zero violations in every state', () => {
  test('form, field error, sending, accepted, call steps, missed, try again', async () => {
    const page = await openPage('/a11y');
    const w = widget(page);
    try {
      await expectNoViolations(page, 'form');

      await w.phone.fill('050 12');
      await w.submit.click();
      await w.dialog.getByText('The number is too short').waitFor();
      await expectNoViolations(page, 'field error');

      // Hold the request briefly in the browser so the "sending" state can be examined.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/callback', async (route) => {
        await held;
        await route.continue();
      });
      await w.phone.fill('050 123 45 99');
      await w.submit.click();
      await w.dialog.getByText('Sending your request…').waitFor();
      await expectNoViolations(page, 'sending');
      release();

      await w.dialog.getByText('We will call +380 50 123 45 99.').waitFor();
      await expectNoViolations(page, 'accepted');
      await w.dialog.locator('[aria-current=step]').getByText('Your phone is ringing').waitFor({ timeout: 10_000 });
      await expectNoViolations(page, 'ringing you');
      await w.dialog.getByText('We could not reach you.').waitFor({ timeout: 15_000 });
      await expectNoViolations(page, 'missed');
      await w.dialog.getByRole('button', { name: 'Try again' }).click();
      await expectNoViolations(page, 'form again');
    } finally {
      await page.close();
    }
  }, 40_000);

  test('consent checkbox with privacy link, and its error', async () => {
    const page = await openPage('/a11y-consent', { 'consent-text': 'I agree that Acme may call me about this request.', 'privacy-url': 'https://acme.example/privacy' });
    const w = widget(page);
    try {
      await expectNoViolations(page, 'consent form');
      await w.phone.fill('050 123 45 67');
      await w.submit.click();
      await w.dialog.getByText('Please tick the box to agree to be called.').waitFor();
      await expectNoViolations(page, 'consent error');
    } finally {
      await page.close();
    }
  });

  test('relay unreachable: the sentence and the office number', async () => {
    const deadRelay = await deadUrl();
    const page = await openPage('/a11y-down', { relay: deadRelay });
    const w = widget(page);
    try {
      await w.phone.fill('050 123 45 67');
      await w.submit.click();
      await w.dialog.getByText('We cannot reach the callback service').waitFor();
      await expectNoViolations(page, 'network error');
    } finally {
      await page.close();
    }
  });

  test('closed office', async () => {
    const page = await openPage('/a11y-closed', {}, closedSystem.relayUrl);
    try {
      await widget(page)
        .dialog.getByText(/We are closed now\. We open/)
        .waitFor();
      await expectNoViolations(page, 'closed');
    } finally {
      await page.close();
    }
  });

  test('Ukrainian and German texts and a light brand colour keep the contrast', async () => {
    for (const [lang, color] of [
      ['uk', '#ffeb3b'],
      ['de', '#1b5e20'],
    ] as const) {
      const page = await browser.newPage();
      await page.goto(host.page(`/a11y-${lang}`, { relayUrl: system.relayUrl, data: { lang, color } }));
      await page.locator('dialback-widget').getByRole('button').first().click();
      await page.getByRole('dialog').waitFor();
      await expectNoViolations(page, `${lang} ${color}`);
      await page.close();
    }
  });
});

describe('keyboard', () => {
  test('focus moves into the dialog, wraps around inside it, and Esc returns it to the launcher', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(host.page('/keyboard', { relayUrl: system.relayUrl }));
      const w = widget(page);
      await w.launcher.focus();
      await page.keyboard.press('Enter');
      await w.dialog.waitFor();
      const focused = () =>
        page.evaluate(() => {
          const el = document.querySelector('dialback-widget')?.shadowRoot?.activeElement as HTMLElement | null;
          return el ? el.getAttribute('aria-label') || el.id || el.textContent : null;
        });
      await expect.poll(focused).toBe('db-phone');
      expect(await w.launcher.getAttribute('aria-expanded')).toBe('true');
      // The relay's open windows offer "Call me later" (always open here: the next seven days).
      await w.dialog.getByRole('button', { name: 'Call me later' }).waitFor();

      // Forward: phone → call me later → submit → close → country → phone …
      const forward: Array<string | null> = [];
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press('Tab');
        forward.push(await focused());
      }
      expect(forward).toEqual(['Call me later', 'Call me back', 'Close', 'db-country', 'db-phone']);
      // Backward from the phone field: country → close → submit (wraps) → call me later.
      const backward: Array<string | null> = [];
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('Shift+Tab');
        backward.push(await focused());
      }
      expect(backward).toEqual(['db-country', 'Close', 'Call me back', 'Call me later']);

      await page.keyboard.press('Escape');
      await w.dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.querySelector('dialback-widget')?.shadowRoot?.activeElement?.className)).toBe('launcher');
      expect(await w.launcher.getAttribute('aria-expanded')).toBe('false');
    } finally {
      await page.close();
    }
  });

  test('targets are at least 44 px and focus is visible', async () => {
    const page = await openPage('/targets', { 'consent-text': 'I agree to be called.', 'privacy-url': 'https://acme.example/privacy' });
    try {
      await widget(page).dialog.getByRole('button', { name: 'Call me later' }).waitFor();
      const sizes = await page.evaluate(() => {
        const root = document.querySelector('dialback-widget')!.shadowRoot!;
        return (
          [...root.querySelectorAll<HTMLElement>('button, a, input, select, label[for=db-consent]')]
            // The checkbox's target is its label; hidden parts (the entry's fallback) are not targets.
            .filter((el) => !(el instanceof HTMLInputElement && el.type === 'checkbox') && el.checkVisibility())
            .map((el) => {
              const box = el.getBoundingClientRect();
              return { what: el.className || el.id || el.tagName, width: Math.round(box.width), height: Math.round(box.height) };
            })
        );
      });
      // Every control of the dialog and the launcher is measured (an empty list would prove nothing).
      expect(sizes.map((s) => s.what).sort()).toEqual(['LABEL', 'close', 'db-country', 'db-phone', 'launcher', 'link', 'primary', 'privacy']);
      for (const s of sizes) {
        expect(s.height, s.what).toBeGreaterThanOrEqual(44);
        expect(s.width, s.what).toBeGreaterThanOrEqual(44);
      }
      await page.keyboard.press('Tab');
      const outline = await page.evaluate(() => {
        const el = document.querySelector('dialback-widget')!.shadowRoot!.activeElement!;
        const style = getComputedStyle(el);
        return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
      });
      expect(outline.style).toBe('solid');
      expect(outline.width).toBeGreaterThanOrEqual(2);
    } finally {
      await page.close();
    }
  });
});
