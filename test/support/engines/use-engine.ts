// One engine for a describe block of a cross-engine test file: launched when the block begins, quit
// when it ends (so only one browser runs at a time), and a fresh page per scenario.
import { afterAll, beforeAll } from 'vitest';
import type { Engine, EngineName, EnginePage } from './engine.ts';
import { launchEngine } from './launch.ts';

export interface EngineUse {
  /** Opens `url` in a fresh page, runs `scenario`, closes the page whatever happens. */
  withPage(url: string, viewport: { width: number; height: number }, scenario: (page: EnginePage) => Promise<void>): Promise<void>;
}

export function useEngine(name: EngineName): EngineUse {
  let engine: Engine;
  beforeAll(async () => {
    engine = await launchEngine(name);
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
  }, 30_000);
  return {
    async withPage(url, viewport, scenario) {
      const page = await engine.open(url, viewport);
      try {
        await scenario(page);
      } finally {
        await page.close();
      }
    },
  };
}

/** Online agents enough that the calls earlier scenarios left running never leave none free. */
export const agents = (count: number) => Array.from({ length: count }, (_, i) => ({ login: `manager${i + 1}`, number: `38044111000${i + 1}`, online: true }));
