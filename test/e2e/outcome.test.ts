// The call's real progress while the simulator plays it (agent answers, visitor's phone rings,
// conversation), shown as steps instead of a countdown; numbers ending in 99 never answer in the
// simulator, and "missed" offers another try.
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { useStage } from '../support/stage.ts';
import { widget } from '../support/widget-page.ts';

const stage = useStage(
  // The relay tells "ringing you" from "connected" by CALL_RING_SECONDS; the simulator's visitor
  // rings for as long. Each step lasts seconds, several of the widget's polls. No re-dials: a
  // missed call is then final, and its view is what this file shows (with the default one re-dial
  // the widget shows the re-dial instead: test/server/lifecycle/held-redial.test.ts).
  (hostUrl) => ({ ALLOWED_ORIGINS: hostUrl, OUTCOME_POLL_MS: '250', CALL_RING_SECONDS: '2', REDIAL_ATTEMPTS: '0' }),
  { simulator: { timing: { agentAnswerMs: 2000, visitorRingMs: 2000, talkMs: 4000 } } },
);

/** Records every step the dialog marks as current, and every sentence of the live region. */
async function watchSteps(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { steps: string[]; announced: string[] };
    w.steps = [];
    w.announced = [];
    const root = document.querySelector('dialback-widget')!.shadowRoot!;
    new MutationObserver(() => {
      const current = root.querySelector('[aria-current=step]')?.textContent;
      if (current && w.steps.at(-1) !== current) w.steps.push(current);
      const said = root.querySelector('[role=status]')?.textContent;
      if (said && w.announced.at(-1) !== said) w.announced.push(said);
    }).observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  return () =>
    page.evaluate(() => {
      const w = window as unknown as { steps: string[]; announced: string[] };
      return { steps: w.steps, announced: w.announced };
    });
}

async function request(page: Page, number: string) {
  await page.goto(stage.host.page(`/outcome-${number.replace(/\D/g, '')}`, { relayUrl: stage.system.relayUrl, data: { phone: '+380 44 111 22 33' } }));
  const w = widget(page);
  await w.launcher.click();
  await w.dialog.waitFor();
  const seen = await watchSteps(page);
  await w.phone.pressSequentially(number);
  await w.submit.click();
  return { w, seen };
}

test("answered: agent on the line, then the visitor's phone rings, then connected, then finished", async () => {
  const page = await stage.browser.newPage();
  try {
    const { w, seen } = await request(page, '050 123 45 67');
    await w.dialog.getByText('Call finished. Thank you!').waitFor({ timeout: 20_000 });
    const { steps, announced } = await seen();
    expect(steps).toEqual(['Request received', 'Connecting an agent', 'Your phone is ringing', 'You are connected']);
    expect(announced[0]).toBe('Sending your request…');
    expect(announced).toContain('We will call +380 50 123 45 67.');
    expect(announced.at(-1)).toBe('Call finished. Thank you!');
    expect(await w.dialog.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    const call = stage.system.sim.calls.find((c) => c.caller === '380501234567')!;
    expect(call.disposition).toBe('ANSWERED');
  } finally {
    await page.close();
  }
}, 30_000);

test('missed (the number never answers): says so, offers to try again and the office number', async () => {
  const page = await stage.browser.newPage();
  try {
    const { w, seen } = await request(page, '050 123 45 99');
    await w.dialog.getByText('We could not reach you.').waitFor({ timeout: 20_000 });
    const { steps, announced } = await seen();
    expect(steps).toContain('Your phone is ringing');
    expect(steps).not.toContain('You are connected');
    expect(announced.at(-1)).toBe('We could not reach you.');
    expect(await w.dialog.getByRole('link', { name: 'Call us: +380 44 111 22 33' }).getAttribute('href')).toBe('tel:+380441112233');
    await w.dialog.getByRole('button', { name: 'Try again' }).click();
    expect(await w.phone.inputValue()).toBe('050 123 45 99');
    const call = stage.system.sim.calls.find((c) => c.caller === '380501234599')!;
    expect(call.disposition).toBe('CLIENT NO ANSWER'); // the simulator's rule for numbers ending in 99
  } finally {
    await page.close();
  }
}, 30_000);
