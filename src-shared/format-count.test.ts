// formatCount groups digits as toLocaleString('en-US') does for whole numbers, without Intl;
// formatCountOf puts the noun in the singular for exactly one and the plural otherwise.
import { describe, expect, it } from 'vitest';
import { formatCount, formatCountOf } from './format-count';

describe('formatCount', () => {
  it('matches en-US grouping for whole numbers of every length and sign', () => {
    for (const n of [0, 7, 42, 999, 1000, 32_768, 1_048_576, 123_456_789, -4096, -1_000_000, 2 ** 53 - 1]) {
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    }
  });

  it('drops fractions and passes non-finite values through', () => {
    expect(formatCount(1234.9)).toBe('1,234');
    expect(formatCount(Number.NaN)).toBe('NaN');
    expect(formatCount(Infinity)).toBe('Infinity');
  });

  it('says "1 client" but "0 clients", "2 clients" and "1,024 clients"; an irregular plural is given', () => {
    expect(formatCountOf(1, 'client')).toBe('1 client');
    expect(formatCountOf(0, 'client')).toBe('0 clients');
    expect(formatCountOf(2, 'client')).toBe('2 clients');
    expect(formatCountOf(1024, 'client')).toBe('1,024 clients');
    expect(formatCountOf(1, 'pass', 'passes')).toBe('1 pass');
    expect(formatCountOf(3, 'pass', 'passes')).toBe('3 passes');
  });
});
