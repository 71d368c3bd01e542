// The choice of department in three engines (Chromium, Firefox ESR, WebKitGTK), keyboard only and
// axe-clean: a relay with DEPARTMENTS_FILE lists three departments, the page's tag offers two
// (data-departments) and preselects one (data-department); the visitor moves back to the field,
// picks the other by typing its name, and submits; the service is asked with that department's
// caller and caller type.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callbackCalls, startSystem, type System } from '../support/system.ts';
import { startHostSite, type HostSite } from '../support/host-site.ts';
import type { Engine } from '../support/engines/engine.ts';
import { axeViolations, errorRecorder, snapshot, until, waitFor } from '../support/engines/in-page.ts';
import { engineNames, launchEngine } from '../support/engines/launch.ts';
import { accepted, press, UNLIMITED } from '../support/engines/moves.ts';
import { departmentsFile } from '../support/departments.ts';

const desktop = { width: 1280, height: 800 };
let host: HostSite;
let system: System;
let pageCount = 0;

beforeAll(async () => {
  host = await startHostSite();
  const file = departmentsFile({
    departments: [
      { id: 'billing', name: { en: 'Billing' }, caller: '380441110003', agents: ['manager3'] },
      { id: 'sales', name: { en: 'Sales', uk: 'Продажі' }, caller: '380441112233', agents: ['manager1'] },
      { id: 'support', name: { en: 'Support' }, caller: 'support-line', callerType: 'scheme', agents: ['manager2'] },
    ],
  });
  system = await startSystem(
    { ALLOWED_ORIGINS: host.url, DEPARTMENTS_FILE: file, ...UNLIMITED },
    { simulator: { timing: { agentAnswerMs: 200, visitorRingMs: 200, talkMs: 200 } } },
  );
});
afterAll(async () => {
  await system?.close();
  await host?.close();
});

/** Runs in the page: the department field as it shows it, its value and its options' text. */
const field = () => {
  const select = document.querySelector('dialback-widget')?.shadowRoot?.querySelector<HTMLSelectElement>('#db-department');
  return select ? { value: select.value, options: [...select.options].map((o) => o.text) } : null;
};

// One engine at a time: launched for its test, quit after it.
describe.each(engineNames.map((name, index) => [name, index] as const))('%s', (name, index) => {
  test('keyboard only: the page offers two departments, one preselected; the visitor picks the other and is called from its line; axe-clean', async () => {
    const engine: Engine = await launchEngine(name);
    try {
      const url = host.page(`/departments-${++pageCount}`, { relayUrl: system.relayUrl, data: { departments: 'sales,support', department: 'sales' }, head: errorRecorder });
      const page = await engine.open(url, desktop);
      try {
        await until(page, 'the launcher', (s) => s.launcher);
        let s = await page.run(snapshot);
        for (let i = 0; i < 5 && !s.activeIsLauncher; i++) s = await press(page, 'Tab', 'focus', (x) => x.active !== null);
        expect(s.activeIsLauncher, `focus after Tab: ${s.active}`).toBe(true);
        await press(page, 'Enter', 'the dialog with focus in the phone field', (x) => x.open && x.active === 'db-phone');
        // The choice arrives with the status: the two departments the tag offers, Sales chosen.
        const shown = await waitFor(page, 'the department field', field);
        expect(shown).toEqual({ value: 'sales', options: ['Sales (can answer now)', 'Support (can answer now)'] });
        expect(await axeViolations(page), 'the form with the department field').toEqual([]);
        const digits = `50 123 46 0${index}`;
        await page.type(`0${digits.replace(/ /g, '')}`);
        // Back over the country to the department field, named by its label.
        await press(page, 'Shift+Tab', 'focus on the country', (x) => x.active === 'db-country');
        await press(page, 'Shift+Tab', 'focus on the department', (x) => x.activeLabel === 'Department');
        // Typing an option's first letters picks it in every engine (a closed select's type-ahead).
        await page.type('Su');
        await waitFor(page, 'Support chosen', () => document.querySelector('dialback-widget')?.shadowRoot?.querySelector<HTMLSelectElement>('#db-department')?.value === 'support');
        expect((await page.run(snapshot)).activeLabel).toBe('Department');
        await press(page, 'Tab', 'focus on the country', (x) => x.active === 'db-country');
        await press(page, 'Tab', 'focus on the phone', (x) => x.active === 'db-phone');
        s = await press(page, 'Enter', 'the accepted view', accepted(digits));
        expect(s.activeInDialog).toBe(true);
        expect(await axeViolations(page), 'accepted').toEqual([]);
        const params = callbackCalls(system).map((r) => (JSON.parse(r.body) as { params: Record<string, unknown> }).params);
        expect(params.find((p) => p.callee === `380${digits.replace(/ /g, '')}`)).toMatchObject({ caller: 'support-line', caller_type: 'scheme' });
        expect((await page.run(snapshot)).errors).toEqual([]);
      } finally {
        await page.close();
      }
    } finally {
      await engine.close();
    }
  }, 100_000);
});
