// Starts an engine by name; a missing browser, driver or X server fails with a sentence that names
// the Debian package to install.
import { launchChromiumEngine } from './chromium.ts';
import type { Engine, EngineName } from './engine.ts';
import { launchFirefoxEngine } from './firefox.ts';
import { launchWebKitEngine } from './webkit.ts';

export const engineNames: readonly EngineName[] = ['chromium', 'firefox', 'webkit'];

export function launchEngine(name: EngineName): Promise<Engine> {
  return { chromium: launchChromiumEngine, firefox: launchFirefoxEngine, webkit: launchWebKitEngine }[name]();
}
