// What the script-tag entry hands to the lazily loaded UI. The UI chunk imports *types* from the
// entry's modules only: sharing runtime code would make the bundler turn the classic-script entry
// into an ES module with exports, which a plain <script> tag cannot run.
import type { EntryConfig } from './config.ts';
import type { EventDetail, EventName } from './events.ts';

export interface WidgetContext {
  config: EntryConfig;
  /** The script tag (the UI reads the dialog's own data-* attributes from it). */
  script: Element | null;
  /** The element inside the widget's shadow root that the UI renders into and owns. */
  container: HTMLElement;
  /** The page's address when the script ran (utm_* fallback; an SPA may have navigated since). */
  pageAtLoad: string;
  /** Every `dialback('consent', …)` so far, in order, as the page gave it (read by consent/). */
  told: unknown[];
  /**
   * The visitor's language catalog (the same module the UI chunk loads): the invitation's words are
   * in it. Typed here by the words the invitation reads, so this file needs nothing of ui/.
   */
  catalog(): Promise<{ messages: { invite: readonly [now: string, later: string]; close: string } }>;
  emit(name: EventName, detail?: EventDetail): void;
  report(error: unknown): void;
  /** Adds a stylesheet to the shadow root (adopted where supported). */
  adoptStyles(css: string): void;
  /** Tells the entry whether the dialog is open (it keeps the launcher's aria-expanded right). */
  onOpenChange(open: boolean): void;
}

/** What the UI chunk's `start` resolves to (each chunk the entry loads exports a `start(context)`). */
export interface WidgetUi {
  /** Start the work a visitor's intent justifies: today only the /api/status request. */
  prepare(): void;
  /** Opens the dialog; focus returns to `opener` when it closes. */
  open(opener: HTMLElement | null): void;
  close(): void;
}

/** What the invitation chunk gets: the same context (built once), with the launcher it sits beside. */
export interface InviteContext extends WidgetContext {
  launcher: HTMLButtonElement;
  shadow: ShadowRoot;
}
