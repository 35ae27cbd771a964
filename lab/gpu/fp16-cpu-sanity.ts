/**
 * Lab: opens the fp16 tiny build's four graphs on the CPU provider and runs one request end to end
 * through the stages (outside provider-select's fp16 check), printing the first failure if any.
 * Run: npx tsx lab/gpu/fp16-cpu-sanity.ts
 */
import { ensureTinyModel } from '../../src-main/model-builder/tiny-model';
import { createEngine } from '../../src-main/engine/create-engine';

const { builtDir } = await ensureTinyModel('fp16');
for (const codePredictor of ['step', 'loop'] as const) {
  const engine = await createEngine({ modelDir: builtDir, config: { provider: 'cpu', codePredictor }, log: () => {} });
  engine.onDidFinish((o) => console.log(codePredictor, JSON.stringify(o.status === 'done' ? { frames: o.result.timings.numFrames, finite: o.result.pcm.every(Number.isFinite) } : o)));
  engine.addRequest({ requestId: 'x', input: 'Hello there.', inputFormat: 'text', voice: 'ryan', language: 'english', seed: 1, params: { maxNewTokens: 10 } });
  await engine.run();
  await engine.dispose();
}
