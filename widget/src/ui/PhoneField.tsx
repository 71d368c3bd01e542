// The phone input: type=tel, autocomplete=tel, inputmode=tel; grouped as the visitor types, with the
// caret kept after the same digit; the relay's or the light check's error shown right here.
import { h } from 'preact';
import type { JSX } from 'preact';
import { formatTyping } from './phone/parse.ts';

export interface PhoneFieldProps {
  label: string;
  hint: string | null;
  value: string;
  country: string;
  error: string | null;
  onChange(value: string): void;
}

const significant = /[\d+]/;

function countSignificant(text: string): number {
  let n = 0;
  for (const ch of text) if (significant.test(ch)) n++;
  return n;
}

/** Position in `text` just after its `n`-th significant character. */
function positionAfter(text: string, n: number): number {
  if (n <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < text.length; i++) {
    if (significant.test(text[i] as string) && ++seen === n) return i + 1;
  }
  return text.length;
}

export function reformat(raw: string, caret: number, previous: string, deleting: boolean, country: string): { value: string; caret: number } {
  let text = raw;
  let at = caret;
  // Backspace right after a space only removed our own separator: remove the digit before it too,
  // or the visitor could never delete across a group.
  if (deleting && countSignificant(raw) === countSignificant(previous) && raw.length < previous.length) {
    const before = positionAfter(raw, countSignificant(raw.slice(0, caret)));
    const digitAt = before - 1;
    if (digitAt >= 0) {
      text = raw.slice(0, digitAt) + raw.slice(before);
      at = digitAt;
    }
  }
  const kept = countSignificant(text.slice(0, at));
  const value = formatTyping(text, country);
  return { value, caret: positionAfter(value, kept) };
}

export function PhoneField({ label, hint, value, country, error, onChange }: PhoneFieldProps) {
  function onInput(event: JSX.TargetedEvent<HTMLInputElement, Event>) {
    const input = event.currentTarget;
    const inputType = (event as unknown as InputEvent).inputType ?? '';
    const next = reformat(input.value, input.selectionStart ?? input.value.length, value, inputType.startsWith('delete'), country);
    input.value = next.value;
    if ((input.getRootNode() as ShadowRoot | Document).activeElement === input) input.setSelectionRange(next.caret, next.caret);
    onChange(next.value);
  }
  const described = [hint ? 'db-phone-hint' : '', error ? 'db-phone-error' : ''].filter(Boolean).join(' ');
  return (
    <div class={`field phone${error ? ' invalid' : ''}`}>
      <label for="db-phone">{label}</label>
      <input
        id="db-phone"
        name="phone"
        type="tel"
        autocomplete="tel"
        inputMode="tel"
        dir="ltr"
        maxLength={40}
        value={value}
        aria-invalid={error ? 'true' : 'false'}
        aria-describedby={described || undefined}
        onInput={onInput}
      />
      {hint && (
        <p id="db-phone-hint" class="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id="db-phone-error" class="error">
          {error}
        </p>
      )}
    </div>
  );
}
