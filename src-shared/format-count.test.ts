// formatCount groups digits as toLocaleString('en-US') does for whole numbers, without Intl.
import { describe, expect, it } from 'vitest';
import { formatCount } from './format-count';

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
});
