// dialback('config', {...}): settings a tag manager hands over through the queue, before the script
// runs. They count as the tag's data-* attributes (keys named as element.dataset names them), for
// what the entry reads at load and for what the lazy chunks read later; once the widget has started,
// a config changes nothing.
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { boot } from '../../widget/src/boot.ts';

type Stub = ((...args: unknown[]) => void) & { q?: ArrayLike<unknown>[]; loaded?: true };
type Win = Window & { dialback?: Stub };
const win = window as Win;

/** The stub a page (or Google Tag Manager's createArgumentsQueue) installs: it records `arguments`. */
function installStub(): Stub {
  const stub: Stub = function (this: unknown) {
    // biome-ignore lint/complexity/noArguments: the stub records the arguments object itself, as the pages' stub does
    (stub.q = stub.q || []).push(arguments);
  };
  win.dialback = stub;
  return stub;
}

function tag(attrs: Record<string, string> = {}): HTMLScriptElement {
  const el = document.createElement('script');
  el.setAttribute('src', 'http://127.0.0.1:9/widget.js');
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(`data-${k}`, v);
  return el;
}

const launcher = () => document.querySelector('dialback-widget')!.shadowRoot!.querySelector<HTMLButtonElement>('button.launcher')!;

beforeEach(() => {
  delete win.dialback;
  vi.restoreAllMocks();
  vi.stubGlobal('CSS', { supports: () => true }); // jsdom has none
  for (const el of document.querySelectorAll('dialback-widget, dialback-widget-own')) el.remove();
});

describe("dialback('config')", () => {
  test('queued before the script, it configures the entry as the attributes would, over those the tag has', async () => {
    installStub()('config', { lang: 'uk', country: 'pl', position: 'bottom-left', color: '#e91e63', phone: '+380 44 111 22 33', launcher: false });
    const script = tag({ lang: 'de', country: 'DE' });
    const { mounted } = boot(window, document, script)!;
    const { host } = await mounted;
    expect(launcher().textContent).toBe('Передзвоніть мені');
    expect(launcher().hidden).toBe(true);
    expect(host.style.getPropertyValue('--dialback-color')).toBe('#e91e63');
    expect(host.shadowRoot!.querySelector('.root')!.className).toBe('root left');
    // The lazy chunks read the tag: the settings are there, under their attribute names.
    expect(script.getAttribute('data-country')).toBe('pl');
    expect(script.getAttribute('data-phone')).toBe('+380 44 111 22 33');
  });

  test("camelCase keys are the attributes' dashed names; several configs apply in order; the other commands wait their turn", async () => {
    const stub = installStub();
    stub('config', { lang: 'en', inviteText: 'Talk to us?', turnstileSitekey: '1x00000000000000000000AA' });
    stub('on', 'open', () => {});
    stub('config', { lang: 'pl', departments: 'sales,support' });
    const script = tag();
    const context = (await boot(window, document, script)!.mounted) as unknown as { config: { lang: string; country: string } };
    // No data-country: the language's own country comes with its catalog (null here, in the entry).
    expect(context.config).toMatchObject({ lang: 'pl', country: null });
    expect(script.getAttribute('data-invite-text')).toBe('Talk to us?');
    expect(script.getAttribute('data-turnstile-sitekey')).toBe('1x00000000000000000000AA');
    expect(script.getAttribute('data-departments')).toBe('sales,support');
  });

  test('a config is read when the widget starts: a later one changes nothing and logs nothing', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    installStub()('config', { lang: 'uk' });
    const booted = boot(window, document, tag())!;
    await booted.mounted;
    booted.dialback('config', { lang: 'de' });
    expect(launcher().textContent).toBe('Передзвоніть мені');
    expect(error).not.toHaveBeenCalled();
  });

  test('without a script tag to read (document.currentScript unset) the config alone configures it', async () => {
    installStub()('config', { lang: 'uk', relay: 'https://calls.example.com/' });
    const context = (await boot(window, document, null)!.mounted) as unknown as { config: { lang: string; relay: string } };
    expect(context.config).toMatchObject({ lang: 'uk', relay: 'https://calls.example.com' });
  });

  test('a key no attribute can have is reported by name; the widget still starts', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    installStub()('config', { 'invite-text': 'dashed', lang: 'uk' });
    const booted = boot(window, document, tag())!;
    await booted.mounted;
    expect(launcher()).toBeTruthy();
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0]![1])).toContain('invite-text');
  });

  test('settings that are not an object are ignored', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const stub = installStub();
    stub('config');
    stub('config', null);
    stub('config', { lang: 'uk' });
    await boot(window, document, tag())!.mounted;
    expect(launcher().textContent).toBe('Передзвоніть мені');
  });
});
