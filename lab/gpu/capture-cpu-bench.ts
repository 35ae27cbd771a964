/**
 * Lab: today's forms against the capture-ready forms in one process, rounds interleaved (ABAB…) so a
 * shared machine's load drift hits both alike. Three engines on the tiny model (CPU): 'off' on the
 * onnxruntime-node adapter, 'off' on the C-API adapter, graphCapture 'on' (C-API, bound buffers). Each
 * round runs the same requests (1 alone, then 8 together); prints median ms per round and JSON.
 * Run: npx tsx lab/gpu/capture-cpu-bench.ts [--rounds 15] [--frames 16]
 */
import { parseArgs } from 'node:util';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { createEngine } from '../../src-main/engine/create-engine';
import type { Engine } from '../../src-main/engine/engine';
import { runAndCollect } from '../../src-main/engine/testing/run-and-collect';
import { ensureTinyModel } from '../../src-main/model-builder/tiny-model';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '15' }, frames: { type: 'string', default: '16' } } });
const rounds = Number(args.rounds);
const frames = Number(args.frames);
const request = (i: number): SynthesisRequest => ({ requestId: `r${i}`, input: 'The same words for every request.', inputFormat: 'text', voice: 'ryan', language: 'english', seed: 42 + i, params: { maxNewTokens: frames } });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { builtDir } = await ensureTinyModel();
const base = { provider: 'cpu', framesPerTextToken: 0, minFramesCap: frames };
const forms: [string, () => Promise<Engine>][] = [
  ['off (node adapter)', () => createEngine({ modelDir: builtDir, config: base, log: () => {} })],
  ['off (C-API adapter)', async () => {
    process.env.STUDIO_ORT_RUNTIME = 'c-api';
    try {
      return await createEngine({ modelDir: builtDir, config: base, log: () => {} });
    } finally {
      delete process.env.STUDIO_ORT_RUNTIME;
    }
  }],
  ["graphCapture 'on' (C-API, bound)", () => createEngine({ modelDir: builtDir, config: { ...base, graphCapture: { mode: 'on' } }, log: () => {} })],
];
const engines = await Promise.all(forms.map(([, open]) => open()));
const times = forms.map(() => ({ one: [] as number[], eight: [] as number[] }));
for (let r = 0; r < rounds; r++) {
  for (let e = 0; e < engines.length; e++) {
    const i = r % 2 === 0 ? e : engines.length - 1 - e;
    let t0 = performance.now();
    await runAndCollect(engines[i], [request(0)]);
    times[i].one.push(performance.now() - t0);
    t0 = performance.now();
    await runAndCollect(engines[i], Array.from({ length: 8 }, (_, k) => request(k + 1)));
    times[i].eight.push(performance.now() - t0);
  }
}
const rows = forms.map(([name], i) => ({ form: name, oneMs: Math.round(median(times[i].one.slice(1))), eightMs: Math.round(median(times[i].eight.slice(1))) }));
for (const row of rows) console.log(`${row.form}: 1 request ${row.oneMs} ms, 8 together ${row.eightMs} ms (median of ${rounds - 1} rounds, ${frames} frames each)`);
console.log(JSON.stringify({ rounds, frames, rows }));
for (const engine of engines) await engine.dispose();
