// The KV regroup graph on ORT CPU against a slow obvious copy: rows picked from two sources of
// different slot counts, each padded with zeros to the new capacity, pads (repeated rows) included.
import { describe, expect, it } from 'vitest';
import { createSession, disposeSession, runSession, tensor } from '../engine/runtime/ort';
import { buildRegroupGraph, REGROUP_CAPACITY, REGROUP_ROWS, regroupOutputName, regroupSourceName } from './copy-graph';

const HEADS = 2;
const D = 3;

function source(rows: number, slots: number, seed: number): Float32Array {
  return Float32Array.from({ length: rows * HEADS * slots * D }, (_, i) => seed * 1000 + i);
}

/** out[r, h, t, d] = the picked row's value, or 0 past its source's slots. */
function expected(sources: { data: Float32Array; rows: number; slots: number }[], pick: number[], capacity: number): Float32Array {
  const flat = sources.flatMap((s, si) => Array.from({ length: s.rows }, (_, r) => ({ si, r })));
  const out = new Float32Array(pick.length * HEADS * capacity * D);
  pick.forEach((p, o) => {
    const { si, r } = flat[p];
    const s = sources[si];
    for (let h = 0; h < HEADS; h++) for (let t = 0; t < s.slots; t++) for (let d = 0; d < D; d++) {
      out[((o * HEADS + h) * capacity + t) * D + d] = s.data[((r * HEADS + h) * s.slots + t) * D + d];
    }
  });
  return out;
}

describe('KV regroup graph (CPU)', () => {
  it('gathers rows from two sources, pads each to the new capacity with zeros, and repeats rows for pads', async () => {
    const count = 2; // e.g. one layer's keys and values
    const sources = [{ rows: 3, slots: 4 }, { rows: 2, slots: 8 }].map((s, i) => ({ ...s, tensors: [source(s.rows, s.slots, i + 1), source(s.rows, s.slots, i + 5)] }));
    const session = await createSession(buildRegroupGraph(2, count, 'float32'), { provider: 'cpu', intraOpNumThreads: 1 });
    const pick = [4, 0, 2, 2]; // source 1 row 1, source 0 rows 0 and 2, then a pad repeating the last
    const capacity = 8;
    const feeds: Record<string, ReturnType<typeof tensor>> = {
      [REGROUP_ROWS]: tensor('int64', BigInt64Array.from(pick, BigInt), [pick.length]),
      [REGROUP_CAPACITY]: tensor('int64', BigInt64Array.of(BigInt(capacity)), [1]),
    };
    sources.forEach((s, si) => s.tensors.forEach((t, i) => (feeds[regroupSourceName(si, i)] = tensor('float32', t, [s.rows, HEADS, s.slots, D]))));
    const out = await runSession(session, feeds);
    await disposeSession(session);
    for (let i = 0; i < count; i++) {
      const got = out[regroupOutputName(i)];
      expect(got.dims).toEqual([pick.length, HEADS, capacity, D]);
      const want = expected(sources.map((s) => ({ data: s.tensors[i], rows: s.rows, slots: s.slots })), pick, capacity);
      expect(Array.from(got.data as Float32Array)).toEqual(Array.from(want));
    }
  });
});
