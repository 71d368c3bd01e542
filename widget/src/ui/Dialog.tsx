// The dialog shell: role=dialog with aria-modal, a title, a close button, focus kept inside while
// open (Tab and Shift+Tab wrap around), Esc closes. Focus return is the caller's job (App knows the
// opener).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

const focusable = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  title: string;
  closeLabel: string;
  onClose(): void;
  children: ComponentChildren;
}

function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(focusable)).filter((el) => !el.closest('[hidden]'));
}

export function Dialog({ title, closeLabel, onClose, children }: DialogProps) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    // First field if there is one (the phone input), else the first control.
    const first = root.querySelector<HTMLElement>('input:not([type=checkbox]), select') ?? focusables(root)[0];
    first?.focus();
  }, []);

  function onKeyDown(event: KeyboardEvent) {
    const root = ref.current;
    if (!root) return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab') return;
    const items = focusables(root);
    if (!items.length) return;
    const active = (root.getRootNode() as ShadowRoot | Document).activeElement;
    const firstItem = items[0] as HTMLElement;
    const lastItem = items[items.length - 1] as HTMLElement;
    if (event.shiftKey && (active === firstItem || !root.contains(active))) {
      event.preventDefault();
      lastItem.focus();
    } else if (!event.shiftKey && (active === lastItem || !root.contains(active))) {
      event.preventDefault();
      firstItem.focus();
    }
  }

  return (
    <div class="overlay">
      <div class="backdrop" onClick={onClose} />
      <div ref={ref} class="dialog" role="dialog" aria-modal="true" aria-labelledby="db-title" onKeyDown={onKeyDown} part="dialog">
        <div class="head">
          <h2 id="db-title" class="title">
            {title}
          </h2>
          <button type="button" class="close" aria-label={closeLabel} onClick={onClose}>
            ×
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
