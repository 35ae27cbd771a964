// HostKvPool against a slow obvious reference (a plain per-sequence array of positions): staged
// buffers hold exactly each row's positions and zeros after them, writes land in the right blocks,
// the pool reuses freed blocks instead of growing, and a full pool names the setting to raise.
import { describe, expect, it } from 'vitest';
import { HostKvPool } from './host-kv-pool';
import { kvCapacity, stagedElements, type KvDims } from './kv-layout';

const DIMS: KvDims = { numLayers: 2, numKvHeads: 3, headDim: 4, blockPositions: 5 };

/** Reference: value of (sequence, layer, which, head, position, d), a distinct number per element. */
const value = (seq: number, layer: number, which: number, head: number, pos: number, d: number) => seq * 100000 + layer * 10000 + which * 1000 + head * 100 + pos * 4 + d;

/** A present array [rows, KVH, capacity, D] for layer/which where row r is sequence ids[r] holding positions < upTo[r]. */
function present(ids: number[], upTo: number[], capacity: number, layer: number, which: number): Float32Array {
  const out = new Float32Array(stagedElements(DIMS, ids.length, capacity));
  ids.forEach((id, r) => {
    for (let h = 0; h < DIMS.numKvHeads; h++) {
      for (let p = 0; p < upTo[r]; p++) for (let d = 0; d < DIMS.headDim; d++) out[((r * DIMS.numKvHeads + h) * capacity + p) * DIMS.headDim + d] = value(id, layer, which, h, p, d);
    }
  });
  return out;
}

function presents(ids: number[], upTo: number[], capacity: number): Float32Array[] {
  return Array.from({ length: DIMS.numLayers * 2 }, (_, i) => present(ids, upTo, capacity, Math.floor(i / 2), i % 2));
}

describe('HostKvPool', () => {
  it('stages each row with its own positions and zeros after them, across block boundaries', () => {
    const pool = new HostKvPool({ dims: DIMS, dtype: 'float32', initialBlocks: 2, maxBlocks: 20 });
    const ids = [7, 8, 9];
    const lengths = [3, 11, 6];
    // prefill-like writes, then single-position decode writes for sequence 8 to cross into a third block
    const cap0 = kvCapacity(Math.max(...lengths), DIMS.blockPositions);
    const p0 = presents(ids, lengths, cap0);
    ids.forEach((id, r) => pool.write(id, p0, r, cap0, 0, lengths[r]));
    for (let pos = 11; pos < 13; pos++) {
      const cap = kvCapacity(pos + 1, DIMS.blockPositions);
      pool.write(8, presents([8], [pos + 1], cap), 0, cap, pos, pos + 1);
    }
    const finalLengths = [3, 13, 6];
    const capacity = kvCapacity(14, DIMS.blockPositions);
    const staged = pool.stage(ids, capacity);
    for (let i = 0; i < staged.length; i++) expect(Array.from(staged[i])).toEqual(Array.from(present(ids, finalLengths, capacity, Math.floor(i / 2), i % 2)));
    expect(pool.numPositions(8)).toBe(13);
    expect(pool.stats()).toMatchObject({ numBlocksAllocated: 1 + 3 + 2, numSequences: 3 });
  });

  it('reuses released blocks, so a steady load does not grow the pool, and zeroes stale staging', () => {
    const pool = new HostKvPool({ dims: DIMS, dtype: 'float16', initialBlocks: 4, maxBlocks: 4 });
    for (let round = 0; round < 50; round++) {
      const ids = [round * 2, round * 2 + 1];
      const cap = kvCapacity(9, DIMS.blockPositions);
      const p = presents(ids, [9, 4], cap).map((a) => Uint16Array.from(a, (v) => v % 65536));
      ids.forEach((id, r) => pool.write(id, p, r, cap, 0, r === 0 ? 9 : 4));
      const staged = pool.stage([ids[1]], cap);
      expect(Array.from(staged[0].subarray(4 * DIMS.headDim, cap * DIMS.headDim)).every((v) => v === 0)).toBe(true);
      ids.forEach((id) => pool.release(id));
    }
    expect(pool.stats()).toMatchObject({ numBlocksAllocated: 4, numBlocksFree: 4, numSequences: 0 });
  });

  it('fails with out-of-memory naming kvCache.maxBlocks when full, and rejects out-of-order writes', () => {
    const pool = new HostKvPool({ dims: DIMS, dtype: 'float32', initialBlocks: 0, maxBlocks: 2 });
    const cap = kvCapacity(11, DIMS.blockPositions);
    expect(() => pool.write(1, presents([1], [11], cap), 0, cap, 0, 11)).toThrow(/KV pool is full \(2 blocks.*kvCache\.maxBlocks/);
    const pool2 = new HostKvPool({ dims: DIMS, dtype: 'float32', initialBlocks: 1, maxBlocks: 2 });
    expect(() => pool2.write(1, presents([1], [3], cap), 0, cap, 2, 3)).toThrow(/writes KV from position 2 but holds 0/);
    expect(() => new HostKvPool({ dims: DIMS, dtype: 'float32', initialBlocks: 3, maxBlocks: 2 })).toThrow(/initialBlocks/);
  });
});
