/**
 * Reads what a user typed into a number field: a number, a list of numbers, or text that is not
 * one yet ("-", "0.", "1, ") and must be kept as typed, checked against a range (the shared tables
 * in src-shared give the ranges). Pure; NumberField owns the typing, this owns the reading.
 */

/** A field's valid values. SamplingParamLimit and the bench run limits have this shape. */
export interface NumberRange {
  min?: number;
  max?: number;
  /** min itself is not allowed. */
  minExclusive?: boolean;
  integer?: boolean;
}

export type NumberRead =
  | { kind: 'empty' }
  /** On the way to a number: "-", ".", "-.". */
  | { kind: 'partial' }
  | { kind: 'number'; value: number }
  /** Not valid here; `nearest` is the closest valid value where the text is a number at all. */
  | { kind: 'invalid'; reason: string; nearest: number | null };

const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)$/;
const PARTIAL = /^[-+]?\.?$/;

/** "a whole number from 1 to 512", "a number above 0 up to 1": the rule, for messages and titles. */
export function rangeRule(range: NumberRange): string {
  const what = range.integer ? 'a whole number' : 'a number';
  const { min, max } = range;
  if (min !== undefined && max !== undefined) return range.minExclusive ? `${what} above ${min} up to ${max}` : `${what} from ${min} to ${max}`;
  if (min !== undefined) return range.minExclusive ? `${what} above ${min}` : `${what} of at least ${min}`;
  if (max !== undefined) return `${what} of at most ${max}`;
  return what;
}

/** The valid value closest to `n`: rounded where whole numbers are asked, then within the range. */
export function nearestInRange(n: number, range: NumberRange): number {
  let v = range.integer ? Math.round(n) : n;
  if (range.max !== undefined) v = Math.min(range.max, v);
  if (range.min !== undefined && v < range.min) v = range.min;
  if (range.minExclusive && range.min !== undefined && v <= range.min) {
    // the smallest step above an exclusive minimum: 1 for whole numbers, else 0.01
    v = range.min + (range.integer ? 1 : 0.01);
  }
  return v;
}

function isInRange(n: number, range: NumberRange): boolean {
  if (range.integer && !Number.isInteger(n)) return false;
  if (range.min !== undefined && (range.minExclusive ? n <= range.min : n < range.min)) return false;
  return range.max === undefined || n <= range.max;
}

/** One number as typed. */
export function readNumberText(text: string, range: NumberRange = {}): NumberRead {
  const t = text.trim();
  if (t === '') return { kind: 'empty' };
  if (PARTIAL.test(t)) return { kind: 'partial' };
  if (!DECIMAL.test(t)) return { kind: 'invalid', reason: `"${t}" is not a number; type ${rangeRule(range)}`, nearest: null };
  const n = Number(t);
  if (!isInRange(n, range)) return { kind: 'invalid', reason: `${t} is out of range: type ${rangeRule(range)}`, nearest: nearestInRange(n, range) };
  return { kind: 'number', value: n };
}

export type NumberListRead = { kind: 'empty' } | { kind: 'partial' } | { kind: 'numbers'; values: number[] } | { kind: 'invalid'; reason: string };

/** A list of numbers separated by commas or spaces ("1, 2, 4"); a trailing separator is still typing. */
export function readNumberListText(text: string, range: NumberRange = {}, maxItems = Infinity): NumberListRead {
  const parts = text.split(/[\s,;]+/).filter((p) => p !== '');
  if (parts.length === 0) return { kind: 'empty' };
  const values: number[] = [];
  for (const part of parts) {
    const read = readNumberText(part, range);
    if (read.kind === 'partial') return { kind: 'partial' };
    if (read.kind === 'invalid') return { kind: 'invalid', reason: read.reason };
    if (read.kind === 'number') values.push(read.value);
  }
  if (values.length > maxItems) return { kind: 'invalid', reason: `at most ${maxItems} values` };
  return { kind: 'numbers', values };
}

/** How a held value is shown: no float noise (0.1 + 0.2), no exponent for ordinary sizes. */
export function formatNumber(n: number): string {
  return String(Number(n.toPrecision(12)));
}
