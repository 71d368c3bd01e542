// The choice of department in jsdom against a scripted relay over real HTTP: offered only when the
// status lists several departments (limited by data-departments, preselected by data-department,
// else the first that can answer now), named in the visitor's language with whether it can answer,
// the dialog speaking of the chosen department (its closed notice), and the request naming it.
import { h } from 'preact';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { DepartmentStatus, ErrorCode, StatusResponse } from '../../server/src/contract/contract.ts';
import { createApi } from '../../widget/src/api.ts';
import { App } from '../../widget/src/ui/App.tsx';
import { adopt, chooser, offered } from '../../widget/src/ui/departments.tsx';
import { messages as en } from '../../widget/src/ui/i18n/en.ts';
import { messages as uk } from '../../widget/src/ui/i18n/uk.ts';
import { startScriptedRelay, type ScriptedRelay } from '../support/scripted-relay.ts';
import { testConfig, testContext } from '../support/ui-context.ts';

let relay: ScriptedRelay;
beforeAll(async () => {
  relay = await startScriptedRelay();
});
afterAll(() => relay.close());
afterEach(() => {
  cleanup();
  relay.reset();
});

const window1 = [{ opensAt: '2026-11-24T07:00:00.000Z', closesAt: '2026-11-24T16:00:00.000Z' }];
const sales: DepartmentStatus = { id: 'sales', name: { en: 'Sales', uk: 'Продажі' }, available: false, openNow: false, nextOpenAt: window1[0]!.opensAt, windows: window1 };
const support: DepartmentStatus = { id: 'support', name: { en: 'Support' }, available: true, openNow: true, nextOpenAt: null, windows: [] };
const billing: DepartmentStatus = { id: 'billing', name: { de: 'Buchhaltung' }, available: false, openNow: true, nextOpenAt: null, windows: [] };
const status: StatusResponse = {
  available: false,
  agentsOnline: 2,
  agentsFree: 1,
  openNow: false,
  nextOpenAt: sales.nextOpenAt,
  source: 'live',
  windows: window1,
  departments: [sales, support, billing],
};

/** The script tag with these data-* attributes. */
function scriptWith(attributes: Record<string, string>): Element {
  const script = document.createElement('script');
  for (const [name, value] of Object.entries(attributes)) script.setAttribute(`data-${name}`, value);
  return script;
}

async function show(attributes: Record<string, string> = {}, lang: 'en' | 'uk' = 'en') {
  relay.on('GET /api/status', { status: 200, body: status });
  const messages = lang === 'uk' ? uk : en;
  const { ctx } = testContext(testConfig({ relay: relay.url, lang }), messages);
  ctx.script = scriptWith(attributes);
  const api = createApi(relay.url, { isKnownCode: (c): c is ErrorCode => c in messages.errors });
  // As mount.tsx does: the choice is ready when the status is.
  const known = api.status().then((result) => adopt(ctx, result));
  render(<App ctx={ctx} api={api} open={true} status={known} onClose={() => {}} />);
  return ctx;
}
const dialog = () => screen.getByRole('dialog');
const select = (label = 'Department') => within(dialog()).findByLabelText(label) as Promise<HTMLSelectElement>;

describe('the choice of department', () => {
  test('data-departments limits the list (an id that does not exist is ignored); none matching: all', () => {
    expect(offered(status.departments!, scriptWith({ departments: 'support, billing,nope' })).map((d) => d.id)).toEqual(['support', 'billing']);
    expect(offered(status.departments!, scriptWith({ departments: 'nope' })).map((d) => d.id)).toEqual(['sales', 'support', 'billing']);
    expect(offered(status.departments!, null)).toHaveLength(3);
  });

  test('the first choice: data-department when offered, else the first that can answer now; one offered: no field', () => {
    const ctx = (attributes: Record<string, string>) => ({ config: { lang: 'en' as const }, messages: en, script: scriptWith(attributes) });
    expect(chooser(ctx({}), status).first).toBe('support');
    expect(chooser(ctx({ department: 'billing' }), status).first).toBe('billing');
    expect(chooser(ctx({ department: 'billing', departments: 'sales,support' }), status).first).toBe('support');
    const single = chooser(ctx({ departments: 'sales' }), status);
    const [view, field] = single(status, undefined, () => {});
    expect(field).toBeNull();
    expect(view).toMatchObject({ openNow: false, available: false, nextOpenAt: sales.nextOpenAt, windows: window1 });
  });

  test("shows each department with whether it can answer, and the chosen one's state; the request names it", async () => {
    await show();
    const field = await select();
    expect(field.value).toBe('support');
    expect(Array.from(field.options, (o) => o.text)).toEqual(['Sales (closed now)', 'Support (can answer now)', 'Buchhaltung']);
    // Support can answer: no notice. Sales is closed: its closed notice.
    expect(within(dialog()).queryByText(/closed/i, { selector: '.notice p' })).toBeNull();
    fireEvent.change(field, { target: { value: 'sales' } });
    await waitFor(() => expect(dialog().querySelector('.notice.closed')).not.toBeNull());
    fireEvent.change(await select(), { target: { value: 'support' } });
    await waitFor(() => expect(dialog().querySelector('.notice.closed')).toBeNull());

    relay.on('POST /api/callback', { status: 202, body: { status: 'accepted', requestId: 'req-1', phoneMasked: '+380 50 *** ** 67', estimateSeconds: 30 } });
    relay.on('GET /api/callback/*', { status: 200, body: { requestId: 'req-1', outcome: 'accepted', pollAfterMs: 60_000 } });
    const phone = within(dialog()).getByLabelText(en.phoneLabel) as HTMLInputElement;
    phone.value = '501234567';
    fireEvent.input(phone);
    fireEvent.change(await select(), { target: { value: 'billing' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: en.submit }));
    await waitFor(() => expect(relay.requests.some((r) => r.method === 'POST')).toBe(true));
    expect(relay.requests.find((r) => r.method === 'POST')!.body).toMatchObject({ department: 'billing' });
  });

  test("the preselected department is named in the visitor's language and sent without the visitor touching the field", async () => {
    await show({ department: 'sales' }, 'uk');
    const field = await select('Відділ');
    expect(field.value).toBe('sales');
    expect(field.options[0]!.text).toBe('Продажі (зараз зачинено)');
    // Closed: the visitor books a time; the request names the department they saw chosen.
    relay.on('POST /api/callback', {
      status: 202,
      body: { status: 'scheduled', requestId: 'req-2', scheduledFor: sales.nextOpenAt, cancelToken: 't', phoneMasked: '+380 50 *** ** 67' },
    });
    relay.on('GET /api/callback/*', { status: 200, body: { requestId: 'req-2', outcome: 'scheduled', scheduledFor: sales.nextOpenAt, pollAfterMs: 60_000 } });
    const phone = (await within(dialog()).findByLabelText(uk.phoneLabel)) as HTMLInputElement;
    phone.value = '501234567';
    fireEvent.input(phone);
    fireEvent.click(within(dialog()).getByRole('button', { name: uk.submit }));
    await waitFor(() => expect(relay.requests.some((r) => r.method === 'POST')).toBe(true));
    expect(relay.requests.find((r) => r.method === 'POST')!.body).toMatchObject({ department: 'sales' });
  });
});
