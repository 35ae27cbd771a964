// The KV regroup graph on ORT CPU against a slow obvious copy: rows picked from two sources of
// different slot counts, each padded with zeros to the new capacity, pads (repeated rows) included.
// The row-gather graph likewise: rows of two sources of rank-3 tensors, repeats and the zero row.
import { describe, expect, it } from 'vitest';
import { createSession, disposeSession, runSession, tensor } from '../engine/runtime/ort';
import { buildRegroupGraph, buildRowGatherGraph, GATHER_ROWS, gatherSourceName, REGROUP_CAPACITY, REGROUP_ROWS, regroupOutputName, regroupSourceName } from './copy-graph';

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

describe('row-gather graph (CPU)', () => {
  it('picks rows from two sources in any order, repeats them, and gives zeros for the index past the last source row', async () => {
    const dims = [[2, 3], [4, 1]]; // two states of different sizes per row
    const rowsOf = [3, 2];
    const data = (s: number, i: number) => Float32Array.from({ length: rowsOf[s] * dims[i][0] * dims[i][1] }, (_, k) => 1 + s * 100 + i * 1000 + k);
    const session = await createSession(buildRowGatherGraph(2, dims, 'float32'), { provider: 'cpu', intraOpNumThreads: 1 });
    const pick = [3, 0, 5, 2, 2]; // source 1 row 0, source 0 row 0, the zero row, source 0 row 2 twice
    const feeds: Record<string, ReturnType<typeof tensor>> = { [GATHER_ROWS]: tensor('int64', BigInt64Array.from(pick, BigInt), [pick.length]) };
    for (let s = 0; s < 2; s++) dims.forEach((d, i) => (feeds[gatherSourceName(s, i)] = tensor('float32', data(s, i), [rowsOf[s], ...d])));
    const out = await runSession(session, feeds);
    await disposeSession(session);
    dims.forEach((d, i) => {
      const perRow = d[0] * d[1];
      const flat = [...Array.from(data(0, i)), ...Array.from(data(1, i)), ...new Array(perRow).fill(0)];
      const want = pick.flatMap((p) => flat.slice(p * perRow, (p + 1) * perRow));
      expect(out[regroupOutputName(i)].dims).toEqual([pick.length, ...d]);
      expect(Array.from(out[regroupOutputName(i)].data as Float32Array)).toEqual(want);
    });
  });

  it('gives zero rows with no sources at all', async () => {
    const session = await createSession(buildRowGatherGraph(0, [[2, 3]], 'float32'), { provider: 'cpu', intraOpNumThreads: 1 });
    const out = await runSession(session, { [GATHER_ROWS]: tensor('int64', BigInt64Array.of(0n, 0n), [2]) });
    await disposeSession(session);
    expect(out[regroupOutputName(0)].dims).toEqual([2, 2, 3]);
    expect(Array.from(out[regroupOutputName(0)].data as Float32Array)).toEqual(new Array(12).fill(0));
  });
});
