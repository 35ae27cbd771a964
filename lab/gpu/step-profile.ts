/**
 * Lab: where a GPU engine's step time goes (issue 35; not a test, prints JSON, never fails on numbers).
 * Part 1, per engine config: the engine's start-up warm-up (EngineConfig.warmUp; its report is printed),
 * then every level's warm-up requests before any level is measured (issue 47: the first level a process
 * measured paid ~300 ms a step of first-use capture), then 1 and --streams requests of --frames frames together; the
 * stages (talker prefill / decode, code predictor, codec) are wrapped with timers, so each level reports
 * ms per step in each stage, outside them (the engine's host work; also as the engine itself counts it, status().steps:
 * the step less its awaits of the stages, scheduling included), and the bound stages' own split
 * (upload, step, download and staging runs). Part 2 (--codecOptions): the plain codec graph on CUDA under
 * provider-option sets (cuDNN search modes), ms per 16-frame call, and ORT's node profile by op type.
 * Each config also says whether request 0 (same text, voice, seed at every level) gave the same bytes.
 * Run (bundled): node step-profile.js --model <built fp16 dir> --configs '[{"provider":"cuda","graphCapture":{"mode":"on"}}]'
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { createEngine } from '../../src-main/engine/create-engine';
import { OrtCodecDecoder } from '../../src-main/engine/stages/codec-decoder';
import { loadModelManifest } from '../../src-main/engine/stages/model-manifest';
import { createSession, type ProviderName } from '../../src-main/engine/runtime/ort';
import { runAndCollect } from '../../src-main/engine/testing/run-and-collect';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string' }, configs: { type: 'string', default: '[{"provider":"cuda","graphCapture":{"mode":"on"}}]' },
    frames: { type: 'string', default: '16' }, streams: { type: 'string', default: '1,8' },
    codecOptions: { type: 'string' }, codecProvider: { type: 'string', default: 'cuda' },
  },
});
const round = (x: number) => Number(x.toFixed(2));
const numFrames = Number(args.frames);

function requests(n: number, tag: string): SynthesisRequest[] {
  return Array.from({ length: n }, (_, i) => ({
    requestId: `${tag}${i}`, input: 'A sentence of a few words for the profile.', inputFormat: 'text', voice: ['ryan', 'dylan', 'sohee', 'vivian'][i % 4],
    language: 'english', seed: 11 + i, params: { maxNewTokens: numFrames, temperature: 0.9 },
  }));
}

type Timers = Record<string, number>;

/** Replaces obj[name] (a method) with one that adds its wall time to timers[label]. */
function wrap(obj: object | undefined, name: string, timers: Timers, label: string): void {
  const fn = obj && (Reflect.get(obj, name) as ((...a: unknown[]) => Promise<unknown>) | undefined);
  if (!obj || typeof fn !== 'function') return;
  timers[label] = 0;
  Reflect.set(obj, name, async (...a: unknown[]) => {
    const t = performance.now();
    try {
      return await fn.apply(obj, a);
    } finally {
      timers[label] += performance.now() - t;
    }
  });
}

/** The bound stats (with msInRuns) of a stage, looking through bucketing wrappers. */
function boundStats(stage: unknown, depth = 0): Record<string, unknown> | null {
  if (!stage || typeof stage !== 'object' || depth > 4) return null;
  for (const m of ['boundDecodeStats', 'stats']) {
    const fn = Reflect.get(stage, m) as (() => unknown) | undefined;
    const s = typeof fn === 'function' ? (fn.call(stage) as Record<string, unknown> | null) : null;
    if (s && typeof s === 'object' && 'msInRuns' in s) return s;
  }
  return boundStats(Reflect.get(stage, 'inner'), depth + 1) ?? boundStats(Reflect.get(stage, 'options'), depth + 1) ?? boundStats(Reflect.get(stage, 'boundDecode'), depth + 1);
}

function diffRuns(after: Record<string, unknown> | null, before: Record<string, unknown> | null, numSteps: number, key: 'msInRuns' | 'bytesInRuns' = 'msInRuns'): Record<string, number> | null {
  if (!after) return null;
  const a = after[key] as Record<string, number>;
  const b = (before?.[key] as Record<string, number> | undefined) ?? {};
  return Object.fromEntries(Object.entries(a).map(([k, v]) => [k, round((v - (b[k] ?? 0)) / numSteps)]));
}

async function engineProfile(config: Record<string, unknown>): Promise<Record<string, unknown>> {
  const plan: string[] = [];
  const engine = await createEngine({ modelDir: args.model!, config, log: (m) => plan.push(m) });
  const out: Record<string, unknown> = { config, plan: plan.filter((l) => /plan|codec=|talker=/.test(l)).map((l) => l.slice(0, 400)) };
  try {
    const st = engine.parts.stages;
    const timers: Timers = {};
    wrap(st.talker, 'prefill', timers, 'talkerPrefill');
    wrap(st.talker, 'decode', timers, 'talkerDecode');
    wrap(st.codePredictor, 'predict', timers, 'codePredictor');
    wrap(st.codec, 'decodeStreamBatch', timers, 'codecStream');
    wrap(st.codec, 'decodeBatch', timers, 'codecWindow');
    const firstSha: Record<number, string> = {};
    let numSteps = 0;
    const step = engine.step.bind(engine);
    engine.step = async () => {
      const r = await step();
      if (r.kind === 'ran') numSteps++;
      return r;
    };
    const levels = args.streams!.split(',').map(Number);
    // warm every level before measuring any: each level's buckets open and first runs captured
    for (const n of levels) await runAndCollect(engine, requests(n, `w${n}-`));
    out.warmUp = engine.status().warmUp ?? null;
    out.enginePlan = engine.status().plan ?? null;
    console.log(JSON.stringify({ config, warmUp: out.warmUp, enginePlan: out.enginePlan }));
    for (const n of levels) {
      const before = { ...timers };
      const bound = { talker: boundStats(st.talker), codePredictor: boundStats(st.codePredictor), codec: boundStats(st.codec) };
      const steps0 = numSteps;
      const engineSteps0 = engine.status().steps;
      const t = performance.now();
      const outputs = await runAndCollect(engine, requests(n, `m${n}-`));
      // request 0 is the same text, voice and seed at every level: its bytes beside n−1 others vs alone
      const first = outputs.get(`m${n}-0`);
      firstSha[n] = first ? `${first.pcmSha256.slice(0, 12)} codes ${createHash('sha256').update(JSON.stringify(first.codes)).digest('hex').slice(0, 8)}` : '?';
      const wallMs = performance.now() - t;
      const steps = numSteps - steps0;
      const perStep = Object.fromEntries(Object.keys(timers).map((k) => [k, round((timers[k] - before[k]) / steps)]));
      const inStages = Object.keys(timers).reduce((s, k) => s + timers[k] - before[k], 0);
      const engineSteps = engine.status().steps;
      const numEngineSteps = engineSteps && engineSteps0 ? engineSteps.numSteps - engineSteps0.numSteps : 0;
      out[`streams${n}`] = {
        wallMs: round(wallMs), steps, msPerStep: round(wallMs / steps), stageMsPerStep: perStep, hostMsPerStep: round((wallMs - inStages) / steps),
        // the engine's own count: each step less its awaits of the stages (scheduler, sampling, copies between runs), no gaps between steps
        engineHostMsPerStep: numEngineSteps > 0 ? round((engineSteps!.totalHostMs - engineSteps0!.totalHostMs) / numEngineSteps) : null,
        // frames of audio per second of wall time, over the audio's own rate (12.5 frames/s): 1/RTF for the level
        audioSecondsPerSecond: round((n * numFrames) / 12.5 / (wallMs / 1000)),
        boundRunMsPerStep: {
          talker: diffRuns(boundStats(st.talker), bound.talker, steps),
          codePredictor: diffRuns(boundStats(st.codePredictor), bound.codePredictor, steps),
          codec: diffRuns(boundStats(st.codec), bound.codec, steps),
        },
        // graph ids (captures) and buckets opened during the measured level: nonzero means a level paid first-use cost
        boundOpenedInLevel: Object.fromEntries((['talker', 'codePredictor', 'codec'] as const).map((k) => {
          const a = boundStats(st[k]);
          const b = bound[k];
          const delta = (key: string) => Number(a?.[key] ?? 0) - Number(b?.[key] ?? 0);
          return [k, a ? { graphIds: delta('numGraphIds'), buckets: Number(a.numBuckets ?? 0), sessions: Number(a.numSessions ?? 0), staged: delta('numRunsStaged'), regrouped: delta('numRunsRegrouped'), positionsWrittenBack: delta('numPositionsWrittenBack') } : null];
        })),
        // host bytes copied in and out per step (talker KV rows, logits, codec PCM and state): issue 42's copy count
        boundBytesPerStep: {
          talker: diffRuns(boundStats(st.talker), bound.talker, steps, 'bytesInRuns'),
          codePredictor: diffRuns(boundStats(st.codePredictor), bound.codePredictor, steps, 'bytesInRuns'),
          codec: diffRuns(boundStats(st.codec), bound.codec, steps, 'bytesInRuns'),
        },
      };
      console.log(JSON.stringify({ config, [`streams${n}`]: out[`streams${n}`] }));
    }
    out.request0Sha256 = firstSha;
    out.batchInvariant = new Set(Object.values(firstSha)).size === 1;
    console.log(JSON.stringify({ config, request0Sha256: firstSha, batchInvariant: out.batchInvariant }));
  } finally {
    await engine.dispose();
  }
  return out;
}

/** Sums an ORT profile trace by op type: µs per run. */
function opTimes(file: string, numRuns: number): Record<string, number> {
  const events = JSON.parse(fs.readFileSync(file, 'utf8')) as { cat: string; name: string; dur: number; args?: { op_name?: string } }[];
  const byOp: Record<string, number> = {};
  for (const e of events) if (e.cat === 'Node' && e.name.endsWith('_kernel_time') && e.args?.op_name) byOp[e.args.op_name] = (byOp[e.args.op_name] ?? 0) + e.dur;
  return Object.fromEntries(Object.entries(byOp).sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => [k, round(v / numRuns)]));
}

async function codecProfile(optionSets: Record<string, string>[]): Promise<Record<string, unknown>> {
  const manifest = loadModelManifest(args.model!);
  const file = path.join(args.model!, manifest.graphs.codec.file);
  const window = Array.from({ length: 16 }, (_, t) => Array.from({ length: manifest.codec.numQuantizers }, (_, q) => (t * 31 + q * 17) % 2048));
  const out: Record<string, unknown> = {};
  for (const [i, providerOptions] of optionSets.entries()) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codec-prof-'));
    const prefix = path.join(dir, 'codec');
    try {
      const session = await createSession(file, { provider: args.codecProvider as ProviderName, runtime: 'c-api', providerOptions, enableProfiling: true, profileFilePrefix: prefix });
      const codec = new OrtCodecDecoder(session, manifest);
      const row: Record<string, unknown> = { providerOptions };
      for (const batch of [1, 8]) {
        const windows = Array.from({ length: batch }, () => window);
        await codec.decodeBatch(windows);
        const times: number[] = [];
        for (let r = 0; r < 6; r++) {
          const t = performance.now();
          await codec.decodeBatch(windows);
          times.push(performance.now() - t);
        }
        row[`batch${batch}Ms`] = { mean: round(times.reduce((a, b) => a + b) / times.length), min: round(Math.min(...times)) };
      }
      await codec.dispose();
      const trace = fs.readdirSync(dir).find((f) => f.endsWith('.json'));
      if (trace) row.opMicrosecondsPerRun = opTimes(path.join(dir, trace), 14);
      out[`set${i}`] = row;
    } catch (err) {
      out[`set${i}`] = { providerOptions, error: (err as Error).message.slice(0, 300) };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    console.log(JSON.stringify({ codec: out[`set${i}`] }));
  }
  return out;
}

const results: Record<string, unknown> = { date: new Date().toISOString(), frames: numFrames };
for (const config of JSON.parse(args.configs!) as Record<string, unknown>[]) {
  try {
    results[JSON.stringify(config)] = await engineProfile(config);
  } catch (err) {
    results[JSON.stringify(config)] = { error: (err as Error).message.slice(0, 400) };
    console.log(JSON.stringify({ config, error: (err as Error).message.slice(0, 400) }));
  }
}
if (args.codecOptions) results.codec = await codecProfile(JSON.parse(args.codecOptions) as Record<string, string>[]);
console.log(`RESULT ${JSON.stringify(results)}`);
