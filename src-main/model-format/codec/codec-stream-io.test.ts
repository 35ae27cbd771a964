// The static streaming codec's carry-join inputs: their symbolic lengths and host-written index and keep.
import { describe, expect, it } from 'vitest';
import { joinLength, joinLengthDim, writeJoinInputs } from './codec-stream-io';

describe('carry join inputs', () => {
  it('writes the length as a dim the engine reads back at any frame count', () => {
    expect(joinLengthDim(6, 1)).toBe('num_frames+6');
    expect(joinLengthDim(54, 480)).toBe('num_frames*480+54');
    expect(joinLength('num_frames+6', 4)).toEqual({ length: 10, numState: 6 });
    expect(joinLength(joinLengthDim(54, 480), 2)).toEqual({ length: 1014, numState: 54 });
    expect(() => joinLength('num_frames', 2)).toThrow(/not a join length/);
  });

  it('gathers the state entries first, then zeros kept out; with the padded signal that is [state, x]', () => {
    const index = new Int32Array(7);
    const keep = new Float32Array(7);
    writeJoinInputs(index, keep, 3);
    expect(Array.from(index)).toEqual([0, 1, 2, 2, 2, 2, 2]);
    expect(Array.from(keep)).toEqual([1, 1, 1, 0, 0, 0, 0]);
    // the graph's sum: state[index] · keep + [0, 0, 0, x]
    const state = [0.5, -2, 3.25];
    const x = [7, -0, 1e-30, 9];
    const joined = Array.from(index, (i, j) => state[i] * keep[j] + (j < 3 ? 0 : x[j - 3]));
    expect(joined).toEqual([...state, ...x.map((v) => v + 0)]);
  });
});
