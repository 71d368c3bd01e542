// window.dialback: one global function. Pages may call it before the script has loaded by installing
// the usual stub, which only records the calls:
//   window.dialback = window.dialback || function () { (dialback.q = dialback.q || []).push(arguments) };
// When the entry runs it replaces the stub with the real function and replays what was recorded.
import type { Handler } from './events.ts';
import { report } from './report.ts';

export interface CommandActions {
  open(): void;
  close(): void;
  /** Shows the invitation now, if its caps allow (loads its chunk when the tag has no data-invite). */
  invite(): void;
  /** `dialback('consent', { analytics, ads })`: recorded only; the lazily loaded consent code reads it (consent/). */
  consent(told: unknown): void;
  on(event: string, handler: Handler): void;
}

export interface DialbackFunction {
  (...args: unknown[]): void;
  /** Calls recorded by the stub before the script arrived. */
  q?: ArrayLike<unknown>[];
  /** Set once the real script has taken over: a second copy of the script then does nothing. */
  loaded?: true;
}

export function createDialback(actions: CommandActions): DialbackFunction {
  const dialback: DialbackFunction = (command, event, handler) => {
    if (command === 'open' || command === 'close' || command === 'invite' || command === 'consent') actions[command](event);
    else if (command === 'on' && typeof event === 'string' && typeof handler === 'function') actions.on(event, handler as Handler);
    else if (command !== 'config') report('unknown command: ' + String(command)); // config: read once, at start (boot.ts)
  };
  dialback.loaded = true;
  return dialback;
}
