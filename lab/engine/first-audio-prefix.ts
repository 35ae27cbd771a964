/**
 * Lab: first audio of a repeated voice with the prompt-prefix KV cache on and off (issue 47, item 5),
 * on a tiny model on the CPU by default. Per config: one request alone per trial (a new text each
 * time, the same voice; the first trial of the cache-on engine is its miss, the rest hits), then
 * --clients requests of that voice submitted together. Reports first-audio ms (median and mean),
 * talker prefill ms per request, and the cache counters. Records numbers, never fails on them.
 * Run: npx tsx lab/engine/first-audio-prefix.ts [--variant tiny|tiny-1.7b] [--trials 20] [--clients 8] [--instruct 'Speak calmly.']
 */
import { parseArgs } from 'node:util';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { percentile } from '../../src-shared/percentile';
import { ensureTinyModel, ensureTinyVariant } from '../../src-main/model-builder/tiny-model';
import { createEngine } from '../../src-main/engine/create-engine';
import type { Engine } from '../../src-main/engine/engine';

const { values: args } = parseArgs({
  options: {
    variant: { type: 'string', default: 'tiny' },
    provider: { type: 'string', default: 'cpu' },
    trials: { type: 'string', default: '20' },
    clients: { type: 'string', default: '8' },
    frames: { type: 'string', default: '8' },
    instruct: { type: 'string' },
  },
});
const numTrials = Number(args.trials);
const numClients = Number(args.clients);
const round = (x: number) => Number(x.toFixed(2));

const TEXTS = ['Hello world, this is the studio.', 'A second sentence to speak.', 'The weather is fine today.', 'Numbers like 42 are spoken too.'];
const speak = (requestId: string, i: number): SynthesisRequest => ({
  requestId,
  input: `${TEXTS[i % TEXTS.length]} Take ${i}.`,
  inputFormat: 'text',
  voice: 'ryan',
  language: 'english',
  ...(args.instruct ? { instruct: args.instruct } : {}),
  seed: 100 + i,
  params: { maxNewTokens: Number(args.frames) },
});

async function run(engine: Engine, requests: SynthesisRequest[]): Promise<SynthesisResult[]> {
  const results: SynthesisResult[] = [];
  const off = engine.onDidFinish((o) => o.status === 'done' && results.push(o.result));
  for (const r of requests) engine.addRequest(r);
  await engine.run();
  off();
  return results;
}

/** Adds the talker's prefill wall time (both runs: prefix and rest) to timer.ms. */
function timePrefill(engine: Engine): { ms: number } {
  const timer = { ms: 0 };
  const talker = engine.parts.stages.talker;
  const prefill = talker.prefill.bind(talker);
  talker.prefill = async (inputs) => {
    const t = performance.now();
    try {
      return await prefill(inputs);
    } finally {
      timer.ms += performance.now() - t;
    }
  };
  return timer;
}

const summary = (xs: number[]) => ({ median: round(percentile(xs, 0.5)), mean: round(xs.reduce((a, b) => a + b, 0) / xs.length), min: round(Math.min(...xs)) });

async function profile(modelDir: string, name: string, config: Record<string, unknown>): Promise<Record<string, unknown>> {
  const engine = await createEngine({ modelDir, config: { provider: args.provider, codePredictor: 'step', ...config }, log: () => {} });
  try {
    await run(engine, [speak('warm', 999)]); // opens every session once; its prefix is the miss below only when the cache is off
    const prefill = timePrefill(engine);
    const firstAudioMs: number[] = [];
    const prefillMs: number[] = [];
    for (let i = 0; i < numTrials; i++) {
      prefill.ms = 0;
      const [result] = await run(engine, [speak(`alone${i}`, i)]);
      firstAudioMs.push(result.timings.latencyFirstAudioMs);
      prefillMs.push(prefill.ms);
    }
    const statsAlone = engine.status().prefixCache;
    const together = await run(engine, Array.from({ length: numClients }, (_, i) => speak(`c${i}`, 1000 + i)));
    return {
      name,
      config,
      alone: { numTrials, firstAudioMs: summary(firstAudioMs), prefillMs: summary(prefillMs), prefixCache: statsAlone },
      [`clients${numClients}`]: { firstAudioMs: summary(together.map((r) => r.timings.latencyFirstAudioMs)), prefixCache: engine.status().prefixCache },
    };
  } finally {
    await engine.dispose();
  }
}

async function main(): Promise<void> {
  const { builtDir } = args.variant === 'tiny' ? await ensureTinyModel() : await ensureTinyVariant({ size: args.variant as 'tiny-1.7b', modelType: 'custom_voice' });
  const configs: [string, Record<string, unknown>][] = [
    ['cache on (hits after the warm request)', {}],
    ['cache off (maxBytes 0)', { prefixCache: { maxBytes: 0 } }],
  ];
  // alternate the order so neither config always runs on a colder process
  for (const [name, config] of [...configs, ...configs.slice().reverse()]) console.log(JSON.stringify({ variant: args.variant, ...(await profile(builtDir, name, config)) }));
}

void main();
