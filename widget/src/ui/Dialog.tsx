// The dialog shell: role=dialog with aria-modal, a title, a close button, focus kept inside while
// open (Tab and Shift+Tab wrap around), Esc closes. Focus is never lost: each new view (`view`
// changes) takes focus, and whenever focus ends up outside the dialog (the focused element was
// replaced by the next view, a click on the page) it is brought back, so Esc keeps working. Focus
// return is the caller's job (it knows the opener).
import { h } from 'preact';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

// The dialog has no disabled controls and no textarea; Turnstile renders an iframe.
const focusable = 'a[href],button,input,select,iframe';

export interface DialogProps {
  title: string;
  closeLabel: string;
  /** Drawn ahead, unseen (mount.tsx): no dialog to anyone yet, and focus stays where it is. */
  hidden?: boolean;
  /** Names the view the dialog shows; a new name moves focus to the new view. */
  view: string;
  onClose(): void;
  children: ComponentChildren;
}

function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(focusable));
}

export function Dialog({ hidden, title, closeLabel, view, onClose, children }: DialogProps) {
  const ref = useRef<HTMLDivElement>(null);
  const shown = useRef('');

  // Where a view wants focus: its status or alert (tabindex=-1) or the field in error, else the phone
  // input, else the first control.
  const keepFocus = () => {
    const root = ref.current;
    if (!root?.isConnected || hidden) return;
    const active = (root.getRootNode() as ShadowRoot).activeElement;
    if (shown.current === view && root.contains(active)) return;
    shown.current = view;
    const target = root.querySelector<HTMLElement>('[tabindex="-1"],[aria-invalid=true]') ?? root.querySelector<HTMLElement>('[type=tel]') ?? focusables(root)[0];
    target?.focus();
    // WebKit leaves a field focused by script where it is in the dialog's own scroll area: below
    // the fold of a short viewport (1280×800 at 400 % zoom is 320×200).
    target?.scrollIntoView?.({ block: 'nearest' }); // (jsdom has none)
  };
  // After every render: the view may have changed, or replaced the element that had focus.
  useEffect(keepFocus);

  // Keys reach this handler only while focus is inside the dialog (keepFocus sees to that).
  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      return onClose();
    }
    const items = focusables(ref.current!);
    const active = (ref.current!.getRootNode() as ShadowRoot | Document).activeElement;
    // Tab on the last control wraps to the first, Shift+Tab on the first to the last.
    if (event.key === 'Tab' && active === items[event.shiftKey ? 0 : items.length - 1]) {
      event.preventDefault();
      items[event.shiftKey ? items.length - 1 : 0]?.focus();
    }
  }

  // Unseen (drawn ahead), it is no dialog yet: it takes its role as it is shown. (Unseen, it is out
  // of the accessibility tree and nothing in it can take focus.)
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: aria-modal is the dialog's, whose role comes as it is shown
    // biome-ignore lint/a11y/noStaticElementInteractions: the keys are the dialog's; unseen, nothing can focus it
    <div
      ref={ref}
      class={hidden ? 'dialog wait' : 'dialog'}
      role={hidden ? undefined : 'dialog'}
      aria-modal="true"
      aria-labelledby="db-title"
      onKeyDown={onKeyDown}
      // Focus left for the page: take it back once the page is done with the click or Tab.
      onFocusOut={() => setTimeout(keepFocus)}
      part="dialog"
    >
      <div class="head">
        <h2 id="db-title">{title}</h2>
        <button type="button" class="close" aria-label={closeLabel} onClick={onClose}>
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M6 6l12 12M18 6 6 18" />
          </svg>
        </button>
      </div>
      {children}
    </div>
  );
}
