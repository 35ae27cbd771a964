/**
 * Lab: first audio of a repeated voice with the prompt-prefix KV cache on and off (issue 47, item 5),
 * on a tiny model on the CPU by default. Two engines (cache on, cache off), each warmed by one request
 * (the cache-on engine's one miss); then, alternating between them, one request alone per trial (a new
 * text, the same voice), then rounds of --clients requests of that voice submitted together. Reports
 * first-audio ms and talker prefill ms per request (median, mean, min) and the cache counters.
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

interface Measured {
  name: string;
  engine: Engine;
  prefill: { ms: number };
  firstAudioMs: number[];
  prefillMs: number[];
  clientsFirstAudioMs: number[];
}

async function main(): Promise<void> {
  const { builtDir } = args.variant === 'tiny' ? await ensureTinyModel() : await ensureTinyVariant({ size: args.variant as 'tiny-1.7b', modelType: 'custom_voice' });
  const configs: [string, Record<string, unknown>][] = [
    ['cache on (hits after the warm request)', {}],
    ['cache off (maxBytes 0: every request a miss)', { prefixCache: { maxBytes: 0 } }],
  ];
  const runs: Measured[] = [];
  for (const [name, config] of configs) {
    const engine = await createEngine({ modelDir: builtDir, config: { provider: args.provider, codePredictor: 'step', ...config }, log: () => {} });
    await run(engine, [speak('warm', 999)]); // opens every session once; with the cache on, the one miss
    runs.push({ name, engine, prefill: timePrefill(engine), firstAudioMs: [], prefillMs: [], clientsFirstAudioMs: [] });
  }
  try {
    // trials alternate between the configs, so load from other work on the machine falls on both alike
    for (let i = 0; i < numTrials; i++) {
      for (const m of i % 2 === 0 ? runs : [...runs].reverse()) {
        m.prefill.ms = 0;
        const [result] = await run(m.engine, [speak(`alone${i}`, i)]);
        m.firstAudioMs.push(result.timings.latencyFirstAudioMs);
        m.prefillMs.push(m.prefill.ms);
      }
    }
    const numRounds = Math.max(1, Math.round(numTrials / 4));
    for (let i = 0; i < numRounds; i++) {
      for (const m of i % 2 === 0 ? runs : [...runs].reverse()) {
        const together = await run(m.engine, Array.from({ length: numClients }, (_, c) => speak(`r${i}c${c}`, 1000 + c)));
        m.clientsFirstAudioMs.push(...together.map((r) => r.timings.latencyFirstAudioMs));
      }
    }
    for (const m of runs) {
      console.log(JSON.stringify({
        variant: args.variant,
        name: m.name,
        alone: { numTrials, firstAudioMs: summary(m.firstAudioMs), prefillMs: summary(m.prefillMs) },
        [`clients${numClients}`]: { numRounds, firstAudioMs: summary(m.clientsFirstAudioMs) },
        prefixCache: m.engine.status().prefixCache,
      }));
    }
  } finally {
    for (const m of runs) await m.engine.dispose();
  }
}

void main();
