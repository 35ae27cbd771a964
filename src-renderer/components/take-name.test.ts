// The one take name: Speak, the Timeline and the Library all number takes from 1, the first take being Take 1.
import { describe, expect, it } from 'vitest';
import { takeName, takeNameAt } from './take-name';

describe('takeName', () => {
  it('names a take by its number', () => {
    expect(takeName(1)).toBe('Take 1');
    expect(takeName(12)).toBe('Take 12');
  });

  it('names the take at a 0-based position one higher, so a turn\'s own audio is Take 1', () => {
    expect(takeNameAt(0)).toBe('Take 1');
    expect(takeNameAt(1)).toBe('Take 2');
  });
});
