// "Never call this number" asks first, in a modal <dialog>: the browser keeps focus inside it and
// Esc cancels. Focus starts on the safe choice (keep calling), and goes back where it was after.
import { h } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function ConfirmNeverCall({ number, onAnswer }: { number: string; onAnswer: (sure: boolean) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const dialog = ref.current!;
    dialog.showModal();
    keep.current?.focus();
    const onCancel = () => onAnswer(false);
    dialog.addEventListener('cancel', onCancel);
    return () => dialog.removeEventListener('cancel', onCancel);
  }, []);
  return (
    <dialog ref={ref} class="confirm" aria-labelledby="confirm-title" aria-describedby="confirm-text">
      <h3 id="confirm-title">Never call {number}?</h3>
      <p id="confirm-text">The widget will refuse this number from now on, on every relay, and nobody will call it back. This cannot be undone from here.</p>
      <div class="buttons">
        <button type="button" class="button secondary" ref={keep} onClick={() => onAnswer(false)}>
          Keep calling
        </button>
        <button type="button" class="button danger" onClick={() => onAnswer(true)}>
          Never call this number
        </button>
      </div>
    </dialog>
  );
}
