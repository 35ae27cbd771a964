/**
 * Lab: does graph capture change bytes on a GPU provider? Runs a few staggered requests on the engine
 * with graphCapture 'bound' (the capture-ready graphs, uncaptured) and 'on', for each choice of code
 * predictor (loop, step) and codec (stream, window) so the stages can be told apart, and prints whether
 * every request's codes and PCM match, or the first error. Run: npx tsx lab/gpu/capture-check.ts --model <built fp16 dir> [--provider webgpu]
 */
import { parseArgs } from 'node:util';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { createEngine } from '../../src-main/engine/create-engine';
import { runAndCollect, type RequestOutputs } from '../../src-main/engine/testing/run-and-collect';

const { values: args } = parseArgs({ options: { model: { type: 'string' }, provider: { type: 'string', default: 'webgpu' }, only: { type: 'string' }, config: { type: 'string', default: '{}' }, twice: { type: 'boolean', default: false } } });
const REQUESTS: SynthesisRequest[] = Array.from({ length: 4 }, (_, i) => ({
  requestId: `q${i}`, input: i % 2 ? 'Words of a different length here.' : 'Short one.', inputFormat: 'text',
  voice: ['ryan', 'dylan', 'sohee', 'vivian'][i], language: 'english', seed: 77 + 13 * i,
  params: i % 3 === 0 ? { maxNewTokens: 9 + i, doSample: false } : { maxNewTokens: 9 + i, temperature: 0.9 },
}));
/** --config merges engine settings over these (e.g. '{"graphCapture":{"codec":"on"}}'); --twice also runs each mode a second time. */
const base = { provider: args.provider, maxRunningSequences: 8, maxPrefillSequences: 8, ...(JSON.parse(args.config!) as Record<string, unknown>) };
const gc = (base as { graphCapture?: Record<string, unknown> }).graphCapture ?? {};
/** Stage choices; each runs with graphCapture 'bound' (the reference: the same graphs uncaptured) and 'on'. */
const forms: [string, Record<string, unknown>][] = [
  ['loop+stream', {}],
  ['step+stream', { codePredictor: 'step' }],
  ['loop+window', { codec: { mode: 'window' } }],
  ['step+window', { codePredictor: 'step', codec: { mode: 'window' } }],
];
async function run(config: Record<string, unknown>): Promise<RequestOutputs | string> {
  try {
    const engine = await createEngine({ modelDir: args.model!, config: { ...base, ...config }, log: () => {} });
    try {
      return await runAndCollect(engine, REQUESTS, REQUESTS.map((_, i) => 2 * i));
    } finally {
      await engine.dispose();
    }
  } catch (err) {
    return `ERROR ${(err as Error).message.slice(0, 300)}`;
  }
}
for (const [name, extra] of forms) {
  if (args.only && !args.only.split(',').includes(name)) continue;
  const t0 = Date.now();
  const bound = await run({ ...extra, graphCapture: { ...gc, mode: 'bound' } });
  const on = await run({ ...extra, graphCapture: { ...gc, mode: 'on' } });
  if (typeof bound === 'string' || typeof on === 'string') {
    console.log(`${name}: bound ${typeof bound === 'string' ? bound : 'ok'}; on ${typeof on === 'string' ? on : 'ok'}`);
    continue;
  }
  const part = (id: string) => (JSON.stringify(on.get(id)?.codes) !== JSON.stringify(bound.get(id)?.codes) ? 'codes' : 'pcm');
  const diffs = REQUESTS.filter((r) => JSON.stringify(on.get(r.requestId)) !== JSON.stringify(bound.get(r.requestId))).map((r) => `${r.requestId}(${part(r.requestId)})`);
  if (args.twice) {
    const bound2 = await run({ ...extra, graphCapture: { ...gc, mode: 'bound' } });
    const on2 = await run({ ...extra, graphCapture: { ...gc, mode: 'on' } });
    const same = (a: RequestOutputs | string, b: RequestOutputs | string) =>
      typeof a === 'string' || typeof b === 'string' ? 'error' : REQUESTS.filter((r) => JSON.stringify(a.get(r.requestId)) !== JSON.stringify(b.get(r.requestId))).map((r) => r.requestId).join(',') || 'same';
    console.log(`${name}: bound vs bound again: ${same(bound, bound2)}; on vs on again: ${same(on, on2)}`);
  }
  console.log(`${name}: captured ${diffs.length === 0 ? 'gives the bound bytes' : `differs from bound in ${diffs.join(',')}`} (${Date.now() - t0} ms)`);
}
