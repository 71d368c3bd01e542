// The dialog shell: role=dialog with aria-modal, a title, a close button, focus kept inside while
// open (Tab and Shift+Tab wrap around), Esc closes. Focus return is the caller's job (App knows the
// opener).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

// The dialog has no disabled controls and no textarea; Turnstile renders an iframe.
const focusable = 'a[href],button,input,select,iframe';

export interface DialogProps {
  title: string;
  closeLabel: string;
  onClose(): void;
  children: ComponentChildren;
}

function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(focusable));
}

export function Dialog({ title, closeLabel, onClose, children }: DialogProps) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    // The phone input if the form is showing, else the first control.
    (root.querySelector<HTMLElement>('[type=tel]') ?? focusables(root)[0])?.focus();
  }, []);

  // Keys reach this handler only while focus is inside the dialog.
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

  return (
    <div ref={ref} class="dialog" role="dialog" aria-modal="true" aria-labelledby="db-title" onKeyDown={onKeyDown} part="dialog">
      <div class="head">
        <h2 id="db-title">{title}</h2>
        <button type="button" class="close" aria-label={closeLabel} onClick={onClose}>
          ×
        </button>
      </div>
      {children}
    </div>
  );
}
