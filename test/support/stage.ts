// The stage most browser tests play on: a third-party host site (its own origin, hostile CSS), the
// whole system (simulator + relay) allowing that origin, and one Chromium for the file. Registers
// its own beforeAll/afterAll; the returned object is filled in before the first test runs.
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser.ts';
import { startSystem, type System, type SystemOptions } from './system.ts';
import { startHostSite, type HostSite } from './host-site.ts';

export interface Stage {
  host: HostSite;
  system: System;
  browser: Awaited<ReturnType<typeof launchChromium>>;
}

export function useStage(env: (hostUrl: string) => Record<string, string> = (hostUrl) => ({ ALLOWED_ORIGINS: hostUrl }), options?: SystemOptions): Stage {
  const stage = {} as Stage;
  beforeAll(async () => {
    stage.host = await startHostSite();
    stage.system = await startSystem(env(stage.host.url), options);
    stage.browser = await launchChromium();
  });
  afterAll(async () => {
    await stage.browser?.dispose();
    await stage.system?.close();
    await stage.host?.close();
  });
  return stage;
}
