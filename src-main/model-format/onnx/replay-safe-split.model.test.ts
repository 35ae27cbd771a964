// Model tier: replaySafeSplit's nodes run in onnxruntime-node (CPU) and give exactly the parts one plain Split
// of the same widths gives, for uneven widths, equal widths and widths with no equal-width tree.
import { describe, expect, it } from 'vitest';
import { createSession, disposeSession, runSession, tensor } from '../../engine/runtime/ort';
import { GraphBuilder } from './graph-builder';
import { replaySafeSplit } from './replay-safe-split';

async function runSplit(widths: readonly number[], x: Float32Array, rows: number, form: 'safe' | 'plain'): Promise<Float32Array[]> {
  const total = widths.reduce((a, b) => a + b, 0);
  const g = new GraphBuilder({ name: 'split' });
  g.input('x', 'float32', [rows, 2, total]);
  const parts = form === 'safe' ? replaySafeSplit(g, 'x', widths, -1) : g.node('Split', ['x', g.constInt64(widths, [widths.length])], widths.length, { axis: -1 });
  parts.forEach((p, i) => g.output(p, 'float32', [rows, 2, widths[i]], `part${i}`));
  const session = await createSession(g.toBytes(), { provider: 'cpu' });
  try {
    const out = await runSession(session, { x: tensor('float32', x, [rows, 2, total]) });
    return widths.map((_, i) => out[`part${i}`].data as Float32Array);
  } finally {
    await disposeSession(session);
  }
}

describe('replaySafeSplit on ORT (CPU)', () => {
  it.each([[[64, 32, 32]], [[4, 2, 2, 2, 2]], [[3, 5]], [[6, 6]], [[6, 1, 1]]])('%j: the same parts as one Split', async (widths) => {
    const rows = 3;
    const total = widths.reduce((a, b) => a + b, 0);
    const x = Float32Array.from({ length: rows * 2 * total }, (_, i) => Math.sin(i * 1.7) * 10);
    const safe = await runSplit(widths, x, rows, 'safe');
    const plain = await runSplit(widths, x, rows, 'plain');
    expect(safe.map((p) => p.length)).toEqual(widths.map((w) => rows * 2 * w));
    safe.forEach((p, i) => expect([...p]).toEqual([...plain[i]]));
    // and both against the slow reference: part i of line l (rows × 2 lines of `total`) is x[l, offset_i : offset_i + w_i]
    let offset = 0;
    widths.forEach((w, i) => {
      const expected = Array.from({ length: rows * 2 }, (_, l) => [...x.subarray(l * total + offset, l * total + offset + w)]).flat();
      expect([...safe[i]]).toEqual(expected);
      offset += w;
    });
  });
});
