// A host page with a strict Content-Security-Policy (no 'unsafe-inline', no 'unsafe-eval', scripts
// and connections only from the relay): the widget loads, styles itself and places a call without
// one violation.
import { expect, test } from 'vitest';
import { consoleOf, widget } from '../support/widget-page.ts';
import { useStage } from '../support/stage.ts';

const stage = useStage();

test('the whole flow under a strict CSP header, with no violation reported', async () => {
  const csp = [
    "default-src 'none'",
    `script-src ${stage.system.relayUrl}`,
    `connect-src ${stage.system.relayUrl}`,
    "style-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "require-trusted-types-for 'script'",
  ].join('; ');
  const page = await stage.browser.newPage();
  try {
    const { lines, errors } = consoleOf(page);
    await page.addInitScript(() => {
      (window as unknown as { violations: string[] }).violations = [];
      document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { violations: string[] }).violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const response = await page.goto(stage.host.page('/csp', { relayUrl: stage.system.relayUrl, csp }));
    expect(response!.headers()['content-security-policy']).toBe(csp);

    const w = widget(page);
    await w.launcher.click();
    await w.dialog.waitFor();
    // Styled from adopted stylesheets, not inline styles the policy would block.
    expect(await w.launcher.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(11, 87, 208)');
    await w.phone.pressSequentially('0501234567');
    await w.submit.click();
    await w.dialog.getByText('We will call +380 50 123 45 67.').waitFor();
    await expect.poll(() => stage.system.sim.calls.length).toBe(1);

    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
    expect(lines.filter((l) => /Content Security Policy|Trusted Type/i.test(l))).toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    await page.close();
  }
});
