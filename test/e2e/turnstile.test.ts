// Cloudflare Turnstile when the site sets data-turnstile-sitekey: the widget loads Turnstile's
// script only then (here routed to a local fake in the browser), sends a fresh token with each
// request, and the relay (TURNSTILE_SECRET) verifies it against a local fake siteverify endpoint.
import { createServer } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { listen, type Listening } from '../support/listen.ts';
import { useStage } from '../support/stage.ts';
import { widget } from '../support/widget-page.ts';

let siteverify: Listening;
const verified: string[] = [];

// Turnstile's api.js as far as the widget uses it: render() calls back with a token; reset() issues
// a new one. Tokens are unique (the relay accepts each token once, as Cloudflare does).
const fakeTurnstile = `
(() => {
  let issued = 0;
  const widgets = {};
  const page = Math.random().toString(36).slice(2);
  const issue = (id) => setTimeout(() => widgets[id].callback('fake-token-' + page + '-' + (++issued)), 30);
  window.turnstile = {
    render(el, options) {
      const id = 'w' + Object.keys(widgets).length;
      widgets[id] = options;
      el.setAttribute('data-fake-turnstile', options.sitekey);
      issue(id);
      return id;
    },
    reset(id) { issue(id); },
    remove() {},
  };
})();`;

// Registered before the stage, so the relay can be pointed at it.
beforeAll(async () => {
  siteverify = await listen(
    createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const token = new URLSearchParams(body).get('response') ?? '';
        verified.push(token);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: token.startsWith('fake-token-'), hostname: '127.0.0.1' }));
      });
    }),
  );
});
afterAll(async () => {
  await siteverify?.close();
});

const stage = useStage((hostUrl) => ({
  ALLOWED_ORIGINS: hostUrl,
  TURNSTILE_SECRET: 'test-turnstile-secret',
  TURNSTILE_VERIFY_URL: `${siteverify.url}/siteverify`,
  // Every request here comes from 127.0.0.1: room for this file's numbers and attempts.
  LIMIT_CLIENT_RATE: '20',
  LIMIT_CLIENT_NUMBERS_DAILY: '10',
}));

async function pageWithFakeTurnstile(): Promise<{ page: Page; scriptRequests: string[] }> {
  const page = await stage.browser.newPage();
  const scriptRequests: string[] = [];
  await page.route('https://challenges.cloudflare.com/turnstile/v0/api.js**', (route) => {
    scriptRequests.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: fakeTurnstile });
  });
  return { page, scriptRequests };
}

/** The Turnstile token of each callback request the page sends, as it leaves the browser. */
function sentTokens(page: Page): Array<string | undefined> {
  const sent: Array<string | undefined> = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/callback')) sent.push((r.postDataJSON() as { turnstileToken?: string }).turnstileToken);
  });
  return sent;
}

test('a fresh token with each request, verified by the relay; the script loads only with the dialog', async () => {
  const { page, scriptRequests } = await pageWithFakeTurnstile();
  try {
    await page.goto(stage.host.page('/turnstile', { relayUrl: stage.system.relayUrl, data: { 'turnstile-sitekey': '1x00000000000000000000AA' } }));
    const w = widget(page);
    await w.launcher.waitFor();
    expect(scriptRequests).toEqual([]);

    await w.launcher.click();
    await w.dialog.waitFor();
    await expect.poll(() => scriptRequests.length).toBe(1);
    expect(scriptRequests[0]).toContain('render=explicit');
    await w.dialog.locator('[data-fake-turnstile="1x00000000000000000000AA"]').waitFor({ state: 'attached' });
    expect(await w.dialog.getByRole('group', { name: 'Security check' }).count()).toBe(1);

    await w.phone.pressSequentially('050 123 45 67');
    await w.submit.click();
    await w.dialog.getByText('We will call +380 50 123 45 67.').waitFor();
    expect(verified).toEqual([expect.stringMatching(/^fake-token-\w+-1$/)]);

    // Another request (another number) needs another token: the reload draws a new check, which
    // issues one (a new token on the same page is the last test's case).
    await page.goto(stage.host.page('/turnstile', { relayUrl: stage.system.relayUrl, data: { 'turnstile-sitekey': '1x00000000000000000000AA' } }));
    await w.launcher.click();
    await w.phone.pressSequentially('050 123 45 68');
    await w.dialog.locator('[data-fake-turnstile]').waitFor({ state: 'attached' });
    await w.submit.click();
    await w.dialog.getByText('We will call +380 50 123 45 68.').waitFor();
    expect(verified).toHaveLength(2);
    expect(new Set(verified).size).toBe(2);
    expect(stage.system.sim.calls).toHaveLength(2);
  } finally {
    await page.close();
  }
});

test('submitting before the check has finished asks for it instead of sending', async () => {
  const page = await stage.browser.newPage();
  try {
    // Turnstile never answers here (its script hangs), as on a slow connection.
    await page.route('https://challenges.cloudflare.com/turnstile/v0/api.js**', () => {});
    const sent = sentTokens(page);
    const before = stage.system.sim.calls.length;
    await page.goto(stage.host.page('/turnstile-slow', { relayUrl: stage.system.relayUrl, data: { 'turnstile-sitekey': '1x00000000000000000000AA' } }));
    const w = widget(page);
    await w.launcher.click();
    await w.phone.pressSequentially('050 123 45 69');
    await w.submit.click();
    await w.dialog.getByText('Please complete the security check first.').waitFor();
    // The widget's own guard: no request left the browser (the relay would refuse it with the same words).
    expect(sent).toEqual([]);
    expect(stage.system.sim.calls).toHaveLength(before);
  } finally {
    await page.close();
  }
});

test('after an attempt the check issues a new token on the same page, and the next request carries it', async () => {
  const { page } = await pageWithFakeTurnstile();
  try {
    const sent = sentTokens(page);
    await page.goto(stage.host.page('/turnstile-again', { relayUrl: stage.system.relayUrl, data: { 'turnstile-sitekey': '1x00000000000000000000AA' } }));
    const w = widget(page);
    await w.launcher.click();
    await w.dialog.locator('[data-fake-turnstile]').waitFor({ state: 'attached' });
    // A number the relay refuses (premium rate): the attempt is over, its token used.
    await w.phone.pressSequentially('+44 909 879 0000');
    await w.submit.click();
    await w.dialog.locator('#db-phone-error').waitFor();
    await w.phone.fill('');
    // International, as typing +44 above switched the country to GB.
    await w.phone.pressSequentially('+380 50 123 45 70');
    await w.submit.click();
    await w.dialog.getByText('We will call +380 50 123 45 70.').waitFor();
    // Both tokens from this page's Turnstile, the second issued after the first attempt (not by a reload).
    expect(sent).toEqual([expect.stringMatching(/^fake-token-\w+-1$/), expect.stringMatching(/^fake-token-\w+-2$/)]);
    expect(sent[1]!.replace(/-2$/, '')).toBe(sent[0]!.replace(/-1$/, ''));
    expect(verified.at(-1)).toBe(sent[1]);
  } finally {
    await page.close();
  }
});
