/**
 * The one number input of the renderer: every numeric field (sampling, seeds, bench, timeline edits,
 * pauses) is this. The typed text is kept as typed while it is not a number yet ("", "-", "0.", "1, "),
 * so nothing snaps (clearing never reads 0, "0.7" never shows "00.7", "1, 2, 4" never reads 124); a
 * valid number (or list, with `list`) is reported as it is typed; leaving the field (or Enter) settles
 * it: an out-of-range number goes to the nearest valid one, anything else back to the value held.
 * ArrowUp/ArrowDown step. Store-agnostic; ranges come from the caller (the shared tables).
 */
import { useEffect, useId, useState, type InputHTMLAttributes, type KeyboardEvent } from 'react';
import { formatNumber, nearestInRange, rangeRule, readNumberListText, readNumberText, type NumberRange } from './number-text';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'defaultValue' | 'onChange' | 'min' | 'max' | 'step' | 'list'>;

interface CommonProps extends InputProps, NumberRange {
  /** The valid values (a shared limit); min / max / integer given beside it win. */
  range?: NumberRange;
  /** ArrowUp / ArrowDown change the value by this much (default 1). */
  step?: number;
  'data-testid'?: string;
}

export interface SingleNumberFieldProps extends CommonProps {
  list?: false;
  /** The value held; null shows an empty field (only with allowEmpty). */
  value: number | null;
  /** A valid number typed, or null when the field was emptied and allowEmpty is set. */
  onValue(value: number | null): void;
  /** An empty field means null ("auto"); without it an emptied field goes back to the value held on leaving. */
  allowEmpty?: boolean;
}

export interface ListNumberFieldProps extends CommonProps {
  /** Several numbers, separated by commas or spaces ("1, 2, 4"). */
  list: true;
  value: readonly number[];
  onValue(values: number[]): void;
  maxItems?: number;
}

export type NumberFieldProps = SingleNumberFieldProps | ListNumberFieldProps;

/** `n` within [min, max] (either bound may be absent). */
export function clampNumber(n: number, min?: number, max?: number): number {
  return Math.min(max ?? Infinity, Math.max(min ?? -Infinity, n));
}

function formatHeld(props: NumberFieldProps): string {
  if (props.list) return props.value.map(formatNumber).join(', ');
  return props.value === null ? '' : formatNumber(props.value);
}

/** Whether the draft text already says the value held (so a new held value keeps the draft). */
function draftSaysHeld(draft: string, props: NumberFieldProps, range: NumberRange): boolean {
  if (props.list) {
    const read = readNumberListText(draft, range, props.maxItems);
    return read.kind === 'numbers' && read.values.length === props.value.length && read.values.every((v, i) => v === props.value[i]);
  }
  const read = readNumberText(draft, range);
  return (read.kind === 'number' && read.value === props.value) || (read.kind === 'empty' && props.value === null);
}

export function NumberField(props: NumberFieldProps) {
  const { list: _list, value: _value, onValue: _onValue, range: rangeProp, min, max, minExclusive, integer, step = 1, onBlur, onKeyDown, 'aria-describedby': describedBy, ...rest } = props;
  const allowEmpty = !props.list && props.allowEmpty === true;
  const maxItems = props.list ? props.maxItems : undefined;
  delete (rest as { allowEmpty?: boolean }).allowEmpty;
  delete (rest as { maxItems?: number }).maxItems;
  const range: NumberRange = {
    min: min ?? rangeProp?.min,
    max: max ?? rangeProp?.max,
    minExclusive: minExclusive ?? rangeProp?.minExclusive,
    integer: integer ?? rangeProp?.integer,
  };
  const [draft, setDraft] = useState<string | null>(null);
  const errorId = useId();
  const held = formatHeld(props);

  // A value set from elsewhere (dice, reset, undo) replaces a draft that says something else.
  useEffect(() => {
    setDraft((d) => (d !== null && !draftSaysHeld(d, props, range) ? null : d));
    // only a new held value matters here, so `held` is the one dependency
  }, [held]);

  const text = draft ?? held;
  const problem = draft === null ? null : problemOf(draft);

  function problemOf(t: string): string | null {
    if (props.list) {
      const read = readNumberListText(t, range, maxItems);
      return read.kind === 'invalid' ? read.reason : null;
    }
    const read = readNumberText(t, range);
    return read.kind === 'invalid' ? read.reason : null;
  }

  function report(t: string): void {
    if (props.list) {
      const read = readNumberListText(t, range, maxItems);
      if (read.kind === 'numbers') props.onValue(read.values);
      return;
    }
    const read = readNumberText(t, range);
    if (read.kind === 'number') props.onValue(read.value);
    else if (read.kind === 'empty' && allowEmpty) props.onValue(null);
  }

  /** Leaving or Enter: an out-of-range number becomes the nearest valid one; the field then shows the value held. */
  function settle(): void {
    if (draft === null) return;
    if (!props.list) {
      const read = readNumberText(draft, range);
      if (read.kind === 'invalid' && read.nearest !== null) props.onValue(read.nearest);
    }
    setDraft(null);
  }

  function stepBy(e: KeyboardEvent<HTMLInputElement>, direction: 1 | -1): void {
    if (props.list) return;
    e.preventDefault();
    const read = readNumberText(text, range);
    const from = read.kind === 'number' ? read.value : read.kind === 'invalid' && read.nearest !== null ? read.nearest : (props.value ?? range.min ?? 0);
    // round to the step's decimals so 0.9 - 0.05 reads 0.85, not 0.8500000000000001
    const next = nearestInRange(Number((from + direction * step).toFixed(12)), range);
    props.onValue(next);
    setDraft(formatNumber(next));
  }

  const ruleTitle = props.list ? `${rangeRule(range)}s, separated by commas` : rangeRule(range);
  return (
    <>
      <input
        {...rest}
        type="text"
        inputMode={props.list ? 'text' : range.integer && (range.min ?? -1) >= 0 ? 'numeric' : 'decimal'}
        role={props.list ? undefined : 'spinbutton'}
        aria-valuenow={!props.list && props.value !== null ? props.value : undefined}
        aria-valuemin={!props.list ? range.min : undefined}
        aria-valuemax={!props.list ? range.max : undefined}
        aria-invalid={problem !== null || undefined}
        aria-describedby={[describedBy, problem ? errorId : undefined].filter(Boolean).join(' ') || undefined}
        title={rest.title ?? ruleTitle}
        autoComplete="off"
        spellCheck={false}
        value={text}
        onChange={(e) => {
          setDraft(e.target.value);
          report(e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') settle();
          else if (e.key === 'ArrowUp') stepBy(e, 1);
          else if (e.key === 'ArrowDown') stepBy(e, -1);
          onKeyDown?.(e);
        }}
        onBlur={(e) => {
          settle();
          onBlur?.(e);
        }}
      />
      {problem && (
        <span id={errorId} className="number-field-problem" role="status">
          {problem}
        </span>
      )}
    </>
  );
}
