// The template's own tests (its ___TESTS___ section), run in Node as GTM's template editor runs
// them: each scenario is the `setup` code, then its own, with mock, assertApi, assertThat, runCode
// and fail, against a fresh fake sandbox (gtm-sandbox.ts). Only the assertions the file uses are
// implemented; an unknown one fails loudly.
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { createSandbox, runTemplate, type Sections } from './gtm-sandbox.ts';

export interface Scenario {
  name: string;
  code: string;
}

export function scenariosOf(sections: Sections): { scenarios: Scenario[]; setup: string } {
  const tests = parse(sections.TESTS!) as { scenarios: Scenario[]; setup?: string };
  return { scenarios: tests.scenarios, setup: tests.setup ?? '' };
}

/** GTM converts values leaving the sandbox: compare as plain data (arguments objects as arrays). */
const plain = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value ?? null, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) && typeof v.length === 'number' ? Array.from(v) : v)));

function assertThat(subject: unknown) {
  const check = (ok: boolean, what: string) => {
    if (!ok) throw new Error(`assertThat(${JSON.stringify(subject)}) ${what}`);
  };
  return {
    isEqualTo: (expected: unknown) => check(isDeepStrictEqual(plain(subject), plain(expected)), `is not equal to ${JSON.stringify(expected)}`),
    isNotEqualTo: (expected: unknown) => check(!isDeepStrictEqual(plain(subject), plain(expected)), `is equal to ${JSON.stringify(expected)}`),
    isUndefined: () => check(subject === undefined, 'is not undefined'),
    isDefined: () => check(subject !== undefined, 'is undefined'),
    isTrue: () => check(subject === true, 'is not true'),
    isFalse: () => check(subject === false, 'is not false'),
  };
}

/** Runs one scenario; throws what GTM's editor would report as its failure. */
export function runScenario(sections: Sections, setup: string, scenario: Scenario): void {
  const sandbox = createSandbox(sections);
  const callsOf = (name: string) => sandbox.calls.get(name) ?? [];
  const assertApi = (name: string) => ({
    wasCalled: () => {
      if (!callsOf(name).length) throw new Error(`${name} was not called`);
    },
    wasNotCalled: () => {
      if (callsOf(name).length) throw new Error(`${name} was called: ${JSON.stringify(plain(callsOf(name)))}`);
    },
    wasCalledWith: (...expected: unknown[]) => {
      if (!callsOf(name).some((args) => isDeepStrictEqual(plain(args), plain(expected)))) throw new Error(`${name} was not called with ${JSON.stringify(expected)}`);
    },
  });
  const runCode = (data: Record<string, unknown>) => runTemplate(sections, sandbox, data);
  const fail = (message: string) => {
    throw new Error(message);
  };
  const mock = (name: string, implementation: (...args: unknown[]) => unknown) => sandbox.mock(name, implementation);
  new Function('mock', 'assertApi', 'assertThat', 'runCode', 'fail', `${setup}\n${scenario.code}`)(mock, assertApi, assertThat, runCode, fail);
}
