/**
 * A number input that lets the user type through in-between text ("-", "", "1.") without the
 * field snapping back: a controlled <input type="number"> rewrites "" as its value on every key,
 * so "-" became "0" and "-6" became "06" (+6). Here the typed text is kept while it is not a
 * number yet, each number it reads as is reported (clamped to min…max), and leaving the field
 * shows the value held. Store-agnostic.
 */
import { useState, type InputHTMLAttributes } from 'react';

export interface NumberFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'onChange' | 'min' | 'max'> {
  /** The value held; null shows an empty field (only with allowEmpty). */
  value: number | null;
  /** A number typed (clamped), or null when the field was emptied and allowEmpty is set. */
  onValue(value: number | null): void;
  min?: number;
  max?: number;
  /** An empty field means null ("auto"); without it an empty field reports nothing. */
  allowEmpty?: boolean;
}

/** `n` within [min, max] (either bound may be absent). */
export function clampNumber(n: number, min?: number, max?: number): number {
  return Math.min(max ?? Infinity, Math.max(min ?? -Infinity, n));
}

export function NumberField({ value, onValue, min, max, allowEmpty = false, onBlur, ...rest }: NumberFieldProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const held = value === null ? '' : String(value);
  return (
    <input
      {...rest}
      type="number"
      min={min}
      max={max}
      value={draft ?? held}
      onChange={(e) => {
        const text = e.target.value;
        setDraft(text);
        if (text.trim() === '') {
          if (allowEmpty) onValue(null);
          return;
        }
        const n = Number(text);
        if (Number.isFinite(n)) onValue(clampNumber(n, min, max));
      }}
      onBlur={(e) => {
        setDraft(null);
        onBlur?.(e);
      }}
    />
  );
}
