/**
 * Whole numbers in error messages, grouped by commas as en-US writes them ("1,048,576"), without
 * Intl: the first toLocaleString() of a process loads ICU data, measured at 20–170 ms on the
 * shared 2-core machine — too slow for the path that refuses oversized input; and a count with its
 * noun, singular for exactly one ("1 client", "2 clients"). Pure.
 */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const digits = String(Math.trunc(Math.abs(n)));
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 && Math.trunc(n) !== 0 ? `-${grouped}` : grouped;
}

/** A count with its noun, singular for exactly one: "1 client", "0 clients", "1,024 clients". */
export function formatCountOf(n: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${formatCount(n)} ${n === 1 ? noun : pluralNoun}`;
}
