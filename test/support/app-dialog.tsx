// The whole widget dialog (App) rendered in jsdom against a scripted relay over real HTTP, for the
// widget tests that drive it as a visitor would: the relay's lifetime per file, and the few moves
// every such test makes (show the dialog, type a number, submit).
import { h } from 'preact';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ErrorCode } from '../../server/src/contract/contract.ts';
import { createApi } from '../../widget/src/api.ts';
import type { WidgetConfig } from '../../widget/src/config.ts';
import { App } from '../../widget/src/ui/App.tsx';
import { messages as en } from '../../widget/src/ui/i18n/en.ts';
import type { Messages } from '../../widget/src/ui/i18n/types.ts';
import { startScriptedRelay, type ScriptedRelay } from './scripted-relay.ts';
import { testConfig, testContext } from './ui-context.ts';

/** Call at the top of a test file: one scripted relay for the file, reset (and the dialog unmounted) after each test. */
export function useScriptedRelay(): { readonly relay: ScriptedRelay } {
  let relay: ScriptedRelay | undefined;
  beforeAll(async () => {
    relay = await startScriptedRelay();
  });
  afterAll(async () => {
    await relay?.close();
  });
  afterEach(() => {
    cleanup();
    relay?.reset();
  });
  return {
    get relay() {
      if (!relay) throw new Error('useScriptedRelay: the relay is not started yet (use it inside a test)');
      return relay;
    },
  };
}

/** The 202 of a call the service took. */
export const accepted = { status: 202, body: { status: 'accepted', requestId: 'req-1', phoneMasked: '+380 50 *** ** 67', estimateSeconds: 25 } };

/** Renders the open dialog talking to `relay`; `withStatus`: it asks /api/status first, as the widget does. */
export function showDialog(relay: ScriptedRelay, overrides: Partial<WidgetConfig> = {}, messages: Messages = en, withStatus = false) {
  const config = testConfig({ relay: relay.url, ...overrides });
  const { ctx, events } = testContext(config, messages);
  const api = createApi(relay.url, { isKnownCode: (c): c is ErrorCode => c in messages.errors });
  const status = withStatus ? api.status() : null;
  const view = render(<App ctx={ctx} api={api} open={true} status={status} onClose={() => {}} />);
  return { ...view, ctx, events, status };
}

export const dialog = () => screen.getByRole('dialog');
export const phoneInput = () => within(dialog()).getByLabelText(en.phoneLabel) as HTMLInputElement;
export function type(input: HTMLInputElement, value: string) {
  input.value = value;
  fireEvent.input(input);
}
export const submit = () => fireEvent.click(within(dialog()).getByRole('button', { name: en.submit }));
