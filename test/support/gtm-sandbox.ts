// Google Tag Manager's custom-template sandbox, faked for Node: the template file's sections, its
// declared permissions, and the sandbox APIs the template `require`s, each refusing what the
// permissions do not grant (as GTM does). The window is a plain object the test can inspect.
// Semantics follow GTM's API reference: an unset consent type counts as granted, and a consent
// listener runs only when a type flips between granted and denied.
import { readFileSync } from 'node:fs';

export type Sections = Record<string, string>;

/** The `___NAME___` sections of a .tpl file, by name. */
export function templateSections(path: string): Sections {
  const sections: Sections = {};
  const parts = readFileSync(path, 'utf8').split(/^___([A-Z_]+)___$/m);
  for (let i = 1; i < parts.length; i += 2) sections[parts[i]!] = parts[i + 1]!.trim();
  return sections;
}

interface Grants {
  injectUrls: string[];
  globals: Record<string, { read: boolean; write: boolean; execute: boolean }>;
  consent: Record<string, { read: boolean; write: boolean }>;
  logging: string | undefined;
}

type Value = { type: number; string?: string; boolean?: boolean; listItem?: Value[]; mapKey?: Value[]; mapValue?: Value[] };
interface Permission {
  instance: { key: { publicId: string }; param: Array<{ key: string; value: Value }> };
}

/** GTM's typed values (1 string, 2 list, 3 map, 8 boolean) as plain JavaScript. */
function plain(value: Value): unknown {
  if (value.type === 1) return value.string;
  if (value.type === 8) return value.boolean;
  if (value.type === 2) return (value.listItem ?? []).map(plain);
  if (value.type === 3) return Object.fromEntries((value.mapKey ?? []).map((k, i) => [plain(k), plain(value.mapValue![i]!)]));
  throw new Error(`unknown permission value type ${value.type}`);
}

export function grantsOf(sections: Sections): Grants & { publicIds: string[] } {
  const permissions = JSON.parse(sections.WEB_PERMISSIONS!) as Permission[];
  const grants: Grants = { injectUrls: [], globals: {}, consent: {}, logging: undefined };
  for (const { instance } of permissions) {
    const param = (key: string) => {
      const found = instance.param.find((p) => p.key === key);
      return found && plain(found.value);
    };
    const id = instance.key.publicId;
    if (id === 'inject_script') grants.injectUrls = param('urls') as string[];
    else if (id === 'logging') grants.logging = param('environments') as string;
    else if (id === 'access_globals') for (const k of param('keys') as Array<{ key: string; read: boolean; write: boolean; execute: boolean }>) grants.globals[k.key] = k;
    else if (id === 'access_consent') for (const c of param('consentTypes') as Array<{ consentType: string; read: boolean; write: boolean }>) grants.consent[c.consentType] = c;
    else throw new Error(`a permission the fake does not know: ${id}`);
  }
  return { ...grants, publicIds: permissions.map((p) => p.instance.key.publicId) };
}

/**
 * An inject_script URL pattern, as GTM matches them: the scheme exactly, `*` for any host or
 * `*.` for any subdomain, and `*` in the path for any characters (slashes included).
 */
export function urlAllowed(url: string, pattern: string): boolean {
  const [, scheme, host, path] = /^(\w+):\/\/([^/]+)(\/.*)$/.exec(pattern) ?? [];
  const u = new URL(url);
  if (!scheme || u.protocol !== scheme + ':') return false;
  const hostOk = host === '*' || (host!.startsWith('*.') ? u.host.endsWith(host!.slice(1)) : u.host === host);
  const glob = new RegExp('^' + path!.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*') + '$');
  return hostOk && glob.test(u.pathname) && !u.search && !u.hash;
}

export interface Injection {
  url: string;
  cacheToken: unknown;
  succeed(): void;
  fail(): void;
}

export interface Sandbox {
  require(name: string): unknown;
  /** The page's window as the template left it. */
  window: Record<string, unknown>;
  injections: Injection[];
  logs: unknown[][];
  /** Every call of every API (and of data.gtmOnSuccess / gtmOnFailure), by name, for assertApi. */
  calls: Map<string, unknown[][]>;
  /** Sets a consent type as a consent platform would, running the listeners when it flips. */
  setConsent(type: string, granted: boolean): void;
  /** Replaces an API (the template tests' `mock`). */
  mock(name: string, implementation: (...args: unknown[]) => unknown): void;
  /** `data` as GTM hands it to the code: the values given, with gtmOnSuccess and gtmOnFailure tracked. */
  data(values: Record<string, unknown>): Record<string, unknown>;
}

const at = (root: Record<string, unknown>, path: string) => path.split('.').reduce<unknown>((o, k) => (o == null ? undefined : (o as Record<string, unknown>)[k]), root);
function setAt(root: Record<string, unknown>, path: string, value: unknown) {
  const keys = path.split('.');
  const last = keys.pop()!;
  const parent = keys.reduce<Record<string, unknown>>((o, k) => o[k] as Record<string, unknown>, root);
  parent[last] = value;
}

export function createSandbox(sections: Sections, window: Record<string, unknown> = {}): Sandbox {
  const grants = grantsOf(sections);
  const consent = new Map<string, boolean>();
  const listeners: Array<[string, (type: string, granted: boolean) => void]> = [];
  const injections: Injection[] = [];
  const logs: unknown[][] = [];
  const calls = new Map<string, unknown[][]>();
  const global = (key: string, need: 'read' | 'write' | 'execute') => {
    if (!grants.globals[key]?.[need]) throw new Error(`access_globals does not grant ${need} on ${key}`);
  };
  const consentRead = (type: string) => {
    if (!grants.consent[type]?.read) throw new Error(`access_consent does not grant reading ${type}`);
  };
  const granted = (type: string) => consent.get(type) ?? true;

  const apis: Record<string, (...args: never[]) => unknown> = {
    injectScript(url: string, onSuccess: () => void, onFailure: () => void, cacheToken?: unknown) {
      if (!grants.injectUrls.some((pattern) => urlAllowed(url, pattern))) throw new Error(`inject_script does not allow ${url}`);
      injections.push({ url, cacheToken, succeed: onSuccess, fail: onFailure });
    },
    copyFromWindow(key: string) {
      global(key, 'read');
      return at(window, key);
    },
    createArgumentsQueue(fnKey: string, arrayKey: string) {
      for (const key of [fnKey, arrayKey]) for (const need of ['read', 'write'] as const) global(key, need);
      const fn = function (...args: unknown[]) {
        // biome-ignore lint/complexity/noArguments: the queue holds arguments objects, as GTM's does
        (at(window, arrayKey) as unknown[]).push(arguments);
        return args;
      };
      setAt(window, fnKey, fn);
      if (!Array.isArray(at(window, arrayKey))) setAt(window, arrayKey, []);
      return fn;
    },
    callInWindow(path: string, ...args: unknown[]) {
      global(path, 'execute');
      const fn = at(window, path);
      if (typeof fn !== 'function') throw new Error(`callInWindow: ${path} is not a function`);
      return (fn as (...a: unknown[]) => unknown)(...structuredClone(args));
    },
    isConsentGranted(type: string) {
      consentRead(type);
      return granted(type);
    },
    addConsentListener(type: string, listener: (type: string, granted: boolean) => void) {
      consentRead(type);
      listeners.push([type, listener]);
    },
    logToConsole(...args: unknown[]) {
      if (!grants.logging) throw new Error('no logging permission');
      logs.push(args);
    },
    makeString: (value: unknown) => String(value),
  };
  const tracked =
    (name: string, fn: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      calls.set(name, [...(calls.get(name) ?? []), args]);
      return fn(...args);
    };

  return {
    window,
    injections,
    logs,
    calls,
    require(name) {
      const api = apis[name];
      if (!api) throw new Error(`the fake sandbox has no ${name}`);
      return tracked(name, (...args) => apis[name]!(...(args as never[])));
    },
    setConsent(type, value) {
      const before = granted(type);
      consent.set(type, value);
      if (before !== value) for (const [t, listener] of listeners.slice()) if (t === type) listener(type, value);
    },
    mock(name, implementation) {
      apis[name] = implementation as (...args: never[]) => unknown;
    },
    data(values) {
      return { ...values, gtmOnSuccess: tracked('gtmOnSuccess', () => {}), gtmOnFailure: tracked('gtmOnFailure', () => {}) };
    },
  };
}

/** Runs the template's code as GTM does: a function body of `require` and `data`. */
export function runTemplate(sections: Sections, sandbox: Sandbox, data: Record<string, unknown>): unknown {
  return new Function('require', 'data', sections.SANDBOXED_JS_FOR_WEB_TEMPLATE!)(sandbox.require, sandbox.data(data));
}
