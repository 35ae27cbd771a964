// The engine with codec.upsample 'matmul' (the streaming codec's transposed convs as MatMuls) on the tiny
// build, CPU: the same codes as the default form and PCM within 1e-5 of it, batch-invariant (alone = staggered
// beside others), and graphCapture 'bound' over the static MatMul form gives the plain MatMul form's bytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { createEngine } from './create-engine';
import type { Engine } from './engine';
import { BoundCodecStream } from './stages/codec-bound-stream';
import { runAndCollect, runTogether } from './testing/run-and-collect';

const CONFIG = { provider: 'cpu', maxRunningSequences: 8, maxPrefillSequences: 8 };
const MATMUL = { ...CONFIG, codec: { upsample: 'matmul' } };
const REQUESTS: SynthesisRequest[] = Array.from({ length: 4 }, (_, i) => ({
  requestId: `u${i}`,
  input: i % 2 ? 'A second, longer sentence to decode.' : 'Short one.',
  inputFormat: 'text',
  voice: ['ryan', 'sohee'][i % 2],
  language: 'english',
  seed: 5 + i,
  params: { maxNewTokens: 10 + 3 * i, temperature: 0.9 },
}));
const ARRIVALS = REQUESTS.map((_, i) => 3 * i);

let builtDir: string;
const engines: Engine[] = [];
/** An engine and its start-up log (the resolved plan). */
async function open(config: object): Promise<Engine & { logged: string }> {
  const lines: string[] = [];
  const engine = await createEngine({ modelDir: builtDir, config, log: (line) => lines.push(line) });
  engines.push(engine);
  return Object.assign(engine, { logged: lines.join('\n') });
}

beforeAll(async () => {
  ({ builtDir } = await ensureTinyModel());
}, 120_000);

afterAll(async () => {
  for (const e of engines.splice(0)) await e.dispose();
});

describe("codec.upsample 'matmul' (tiny, CPU)", () => {
  it('decodes the same codes to PCM within 1e-5 of the ConvTranspose form, on the MatMul graph', { timeout: 120_000 }, async () => {
    const [plain, matmul] = [await open(CONFIG), await open(MATMUL)];
    expect(matmul.logged).toContain('capture none (plain graphs, codec=codecStreamMatMul)');
    expect(plain.logged).toContain('capture none (plain graphs, codec=codecStream)');
    const [expected, actual] = [await runTogether(plain, REQUESTS), await runTogether(matmul, REQUESTS)];
    for (const r of REQUESTS) {
      const [a, b] = [actual.get(r.requestId)!, expected.get(r.requestId)!];
      expect(a.codes, r.requestId).toEqual(b.codes);
      expect(a.result.pcm.length).toBe(b.result.pcm.length);
      let maxDiff = 0;
      for (let i = 0; i < a.result.pcm.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a.result.pcm[i] - b.result.pcm[i]));
      expect(maxDiff, r.requestId).toBeLessThan(1e-5);
    }
  });

  it("is batch-invariant, and graphCapture 'bound' (the static MatMul graph) gives its bytes", { timeout: 120_000 }, async () => {
    const [matmul, bound] = [await open(MATMUL), await open({ ...MATMUL, graphCapture: { mode: 'bound' } })];
    const solo = new Map();
    for (const r of REQUESTS) for (const [k, v] of await runAndCollect(matmul, [r])) solo.set(k, v);
    expect(await runAndCollect(matmul, REQUESTS, ARRIVALS)).toEqual(solo);
    expect(bound.logged).toMatch(/codec=codecStreamStaticMatMul/);
    expect(await runAndCollect(bound, REQUESTS, ARRIVALS)).toEqual(solo);
    const codec = bound.parts.stages.codec;
    expect(codec).toBeInstanceOf(BoundCodecStream);
    expect((codec as BoundCodecStream).stats().numRuns).toBeGreaterThan(REQUESTS.length);
  });
});
