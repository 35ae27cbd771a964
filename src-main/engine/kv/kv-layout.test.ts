/**
 * kvCapacity against its plain definition: the smallest power-of-two count of blocks that holds the
 * positions, so a row's capacity depends on its own length alone and a long sequence meets few capacities.
 */
import { describe, expect, it } from 'vitest';
import { kvCapacity } from './kv-layout';

/** The slow definition: try 1, 2, 4, … blocks. */
function reference(numPositions: number, blockPositions: number): number {
  for (let blocks = 1; ; blocks *= 2) if (blocks * blockPositions >= numPositions) return blocks * blockPositions;
}

describe('kvCapacity', () => {
  it('is the smallest power-of-two count of blocks holding the positions', () => {
    for (const block of [1, 4, 64]) for (let n = 0; n <= 5000; n += block === 64 ? 7 : 1) expect(kvCapacity(n, block)).toBe(reference(n, block));
    expect([1, 64, 65, 128, 129, 300, 513, 4096].map((n) => kvCapacity(n, 64))).toEqual([64, 64, 128, 128, 256, 512, 1024, 4096]);
  });

  it('gives a sequence of 4,096 tokens 7 capacities at 64-position blocks, where whole blocks gave 64', () => {
    const capacities = new Set(Array.from({ length: 4096 }, (_, i) => kvCapacity(i + 1, 64)));
    expect([...capacities]).toEqual([64, 128, 256, 512, 1024, 2048, 4096]);
  });
});
