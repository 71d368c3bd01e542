// The Google Tag Manager template (widget/integrations/gtm/template.tpl), checked without GTM: its
// sections and metadata as the Community Template Gallery reads them, a parameter for every data-*
// setting the widget documents, the narrowest permissions, its own ___TESTS___ scenarios, and its
// code run against fakes of the sandbox APIs: what it injects and what it queues for the widget,
// for several settings and consent states.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { launcherText } from '../../widget/src/launcher-text.ts';

/** The widget's languages: those its launcher has words for. */
const languages = Object.keys(launcherText);
import { createSandbox, grantsOf, runTemplate, templateSections, urlAllowed, type Sandbox } from '../support/gtm-sandbox.ts';
import { runScenario, scenariosOf } from '../support/gtm-template-tests.ts';

const dir = join(import.meta.dirname, '../../widget/integrations/gtm');
const sections = templateSections(join(dir, 'template.tpl'));
const code = sections.SANDBOXED_JS_FOR_WEB_TEMPLATE!;

interface Param {
  type: string;
  name: string;
  defaultValue?: unknown;
  subParams?: Param[];
  selectItems?: Array<{ value: string }>;
}
const params = (JSON.parse(sections.TEMPLATE_PARAMETERS!) as Param[]).flatMap((p) => (p.type === 'GROUP' ? p.subParams! : [p]));
const param = (name: string) => params.find((p) => p.name === name)!;
/** What GTM hands the code for a tag left at its defaults, with `values` filled in. */
const tagData = (values: Record<string, unknown>) => ({ ...Object.fromEntries(params.filter((p) => 'defaultValue' in p).map((p) => [p.name, p.defaultValue])), ...values });

/** Runs the template once on a fresh page; returns what it left behind. */
function fire(values: Record<string, unknown>, options: { window?: Record<string, unknown>; consent?: Record<string, boolean> } = {}) {
  const sandbox = createSandbox(sections, options.window);
  for (const [type, granted] of Object.entries(options.consent ?? {})) sandbox.setConsent(type, granted);
  runTemplate(sections, sandbox, tagData(values));
  return { sandbox, queued: () => queued(sandbox) };
}
/** The commands waiting in the page's queue, as arrays. */
const queued = (sandbox: Sandbox) => ((sandbox.window.dialback as { q?: ArrayLike<unknown>[] })?.q ?? []).map((args) => Array.from(args));
const called = (sandbox: Sandbox, name: string) => sandbox.calls.get(name)?.length ?? 0;

describe('the template file', () => {
  test("has the gallery's sections, in its order", () => {
    expect(Object.keys(sections)).toEqual(['TERMS_OF_SERVICE', 'INFO', 'TEMPLATE_PARAMETERS', 'SANDBOXED_JS_FOR_WEB_TEMPLATE', 'WEB_PERMISSIONS', 'TESTS', 'NOTES']);
    expect(JSON.parse(sections.INFO!)).toMatchObject({ type: 'TAG', id: 'cvt_temp_public_id', containerContexts: ['WEB'] });
  });

  test('a parameter for the relay and for every data-* setting docs/embedding.md lists', () => {
    const documented = [...readFileSync(join(import.meta.dirname, '../../docs/embedding.md'), 'utf8').matchAll(/^\| `data-([a-z-]+)`/gm)].map(([, name]) => name!);
    expect(documented.length).toBeGreaterThan(15);
    const camel = (name: string) => name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
    for (const name of documented)
      expect(
        params.map((p) => p.name),
        `data-${name}`,
      ).toContain(camel(name));
    expect(param('relayUrl').type).toBe('TEXT');
  });

  test("the language list is the widget's", () => {
    expect(param('lang').selectItems!.map((i) => i.value)).toEqual(['', ...languages]);
  });

  test('metadata.yaml: homepage, documentation and versions each with a commit sha', () => {
    const metadata = parse(readFileSync(join(dir, 'metadata.yaml'), 'utf8')) as { homepage: string; documentation: string; versions: Array<{ sha: string; changeNotes: string }> };
    expect(metadata.homepage).toMatch(/^https:\/\//);
    expect(metadata.documentation).toMatch(/^https:\/\/.*#google-tag-manager$/);
    expect(metadata.versions.length).toBeGreaterThan(0);
    for (const version of metadata.versions) {
      expect(version.sha).toMatch(/^[0-9a-f]{40}$/);
      expect(version.changeNotes.length).toBeGreaterThan(0);
    }
  });

  test('the code keeps to sandboxed JavaScript: no window, document, new, this, regular expressions or template strings', () => {
    const bare = code.replace(/'(?:[^'\\]|\\.)*'/g, "''").replace(/\/\/.*$/gm, '');
    expect(bare).not.toMatch(/\b(window|document|new|this|class|async|await|eval)\b|`|\/[^/\s*][^/\n]*\/[gimsuy]*\.(test|exec)|\.\.\./);
    const required = [...code.matchAll(/require\('(\w+)'\)/g)].map(([, name]) => name);
    expect(required.sort()).toEqual([
      'addConsentListener',
      'callInWindow',
      'copyFromWindow',
      'createArgumentsQueue',
      'injectScript',
      'isConsentGranted',
      'logToConsole',
      'makeString',
    ]);
  });

  test('the narrowest permissions: widget.js over https, the dialback global, two consent types read only, logging in debug', () => {
    const grants = grantsOf(sections);
    expect(grants.publicIds.sort()).toEqual(['access_consent', 'access_globals', 'inject_script', 'logging']);
    expect(grants.logging).toBe('debug');
    expect(Object.keys(grants.globals).sort()).toEqual(['dialback', 'dialback.q']);
    expect(grants.globals['dialback.q']!.execute).toBe(false);
    expect(grants.consent).toEqual({
      analytics_storage: { consentType: 'analytics_storage', read: true, write: false },
      ad_storage: { consentType: 'ad_storage', read: true, write: false },
    });
    const allowed = (url: string) => grants.injectUrls.some((pattern) => urlAllowed(url, pattern));
    expect(allowed('https://calls.example.com/widget.js')).toBe(true);
    expect(allowed('https://cdn.example.com/dialback/v1/widget.js')).toBe(true);
    for (const url of [
      'http://calls.example.com/widget.js',
      'https://calls.example.com/other.js',
      'https://calls.example.com/widget.js?x=1',
      'https://calls.example.com/widget.jsx',
    ])
      expect(allowed(url), url).toBe(false);
  });
});

describe("the template's own ___TESTS___", () => {
  const { scenarios, setup } = scenariosOf(sections);
  test('there are scenarios', () => expect(scenarios.length).toBeGreaterThanOrEqual(6));
  test.each(scenarios.map((s) => [s.name, s] as const))('%s', (_name, scenario) => runScenario(sections, setup, scenario));
});

describe('run against fakes of the sandbox APIs', () => {
  test('every setting filled in: widget.js injected once from the relay, the settings queued as dialback("config"), then the consent', () => {
    // Every text field, as a site owner fills them in: each reaches the widget as it was typed.
    const settings = {
      lang: 'pl',
      country: 'ua',
      phone: '+380 44 111 22 33',
      position: 'bottom-left',
      color: '#e91e63',
      departments: 'sales,support',
      department: 'support',
      invite: 'exit, time:45',
      inviteText: 'Questions?',
      inviteDays: '3',
      inviteExclude: '/checkout',
      telegram: '@acme_support',
      whatsapp: '+380 50 123 45 67',
      viber: '+380 50 123 45 67',
      consentText: 'I agree to be called.',
      privacyUrl: '/privacy',
      turnstileSitekey: '1x00000000000000000000AA',
      relay: 'https://api.example.com',
    };
    const { sandbox, queued } = fire({ relayUrl: 'https://calls.example.com/dialback/', launcher: false, ...settings });
    expect(sandbox.injections.map((i) => [i.url, i.cacheToken])).toEqual([['https://calls.example.com/dialback/widget.js', 'https://calls.example.com/dialback/widget.js']]);
    expect(queued()).toEqual([
      ['config', { ...settings, launcher: 'false', consent: 'required' }],
      ['consent', { analytics: true, ads: true }],
    ]);
    // GTM waits for the script: success only once it has loaded.
    expect(called(sandbox, 'gtmOnSuccess')).toBe(0);
    sandbox.injections[0]!.succeed();
    expect(called(sandbox, 'gtmOnSuccess')).toBe(1);
  });

  test('a tag left at its defaults passes its own defaults only (the place of the button, the consent rule); the widget keeps its defaults for the rest', () => {
    const { queued } = fire({ relayUrl: 'https://calls.example.com' });
    expect(queued()).toEqual([
      ['config', { position: 'bottom-right', consent: 'required' }],
      ['consent', { analytics: true, ads: true }],
    ]);
  });

  test('consent denied by default (Consent Mode), granted later, then withdrawn: each change is told, both purposes read afresh', () => {
    const { sandbox, queued } = fire({ relayUrl: 'https://calls.example.com' }, { consent: { analytics_storage: false, ad_storage: false } });
    expect(queued().slice(1)).toEqual([['consent', { analytics: false, ads: false }]]);
    sandbox.setConsent('analytics_storage', true);
    sandbox.setConsent('analytics_storage', true); // no change: no listener call
    sandbox.setConsent('ad_storage', true);
    sandbox.setConsent('analytics_storage', false);
    expect(queued().slice(2)).toEqual([
      ['consent', { analytics: true, ads: false }],
      ['consent', { analytics: true, ads: true }],
      ['consent', { analytics: false, ads: true }],
    ]);
  });

  test.each([
    ['auto', undefined],
    ['required', 'required'],
    ['off', 'off'],
  ])('consent "%s": data-consent %s, no consent command and no listener', (consent, expected) => {
    const { sandbox, queued } = fire({ relayUrl: 'https://calls.example.com', consent });
    expect(queued()).toEqual([['config', { position: 'bottom-right', ...(expected && { consent: expected }) }]]);
    expect(called(sandbox, 'isConsentGranted') + called(sandbox, 'addConsentListener')).toBe(0);
  });

  test('the relay address: trailing slashes and spaces dropped; anything but https refused before the page is touched, with a debug line', () => {
    expect(fire({ relayUrl: ' https://calls.example.com// ' }).sandbox.injections[0]!.url).toBe('https://calls.example.com/widget.js');
    for (const relayUrl of ['http://calls.example.com', 'javascript:alert(1)//', '', '//calls.example.com']) {
      const { sandbox } = fire({ relayUrl });
      expect(sandbox.injections).toEqual([]);
      expect(sandbox.window).toEqual({});
      expect(called(sandbox, 'gtmOnFailure')).toBe(1);
      expect(String(sandbox.logs[0])).toContain('https://');
    }
  });

  test('widget.js failing to load: failure reported, with a debug line naming it', () => {
    const { sandbox } = fire({ relayUrl: 'https://calls.example.com' });
    sandbox.injections[0]!.fail();
    expect(called(sandbox, 'gtmOnFailure')).toBe(1);
    expect(called(sandbox, 'gtmOnSuccess')).toBe(0);
    expect(sandbox.logs).toEqual([['Dialback: https://calls.example.com/widget.js could not be loaded']]);
  });

  test('the widget already running (a second firing, or a tag in the page): the commands go to it, no new queue replaces it', () => {
    const received: unknown[][] = [];
    const dialback = Object.assign((...args: unknown[]) => void received.push(args), { loaded: true });
    const { sandbox } = fire({ relayUrl: 'https://calls.example.com', lang: 'uk' }, { window: { dialback } });
    expect(sandbox.window.dialback).toBe(dialback);
    expect(called(sandbox, 'createArgumentsQueue')).toBe(0);
    expect(received.map(([command]) => command)).toEqual(['config', 'consent']);
  });

  test('fired twice before widget.js arrived: one queue, both firings in it, the same script asked for twice (GTM loads it once by its cache token)', () => {
    const sandbox = createSandbox(sections);
    runTemplate(sections, sandbox, tagData({ relayUrl: 'https://calls.example.com', lang: 'uk' }));
    runTemplate(sections, sandbox, tagData({ relayUrl: 'https://calls.example.com', lang: 'uk' }));
    expect(called(sandbox, 'createArgumentsQueue')).toBe(1);
    expect(queued(sandbox).map(([command]) => command)).toEqual(['config', 'consent', 'config', 'consent']);
    expect(new Set(sandbox.injections.map((i) => i.cacheToken)).size).toBe(1);
  });
});
