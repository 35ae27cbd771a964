/**
 * Lab: the shape-bucket check on the GPU machine (not a test; records, never fails). Builds the
 * synthetic 0.6B, opens the engine with the config's shape buckets, runs 8 requests one at a time
 * (the alone references and the serial baseline), then the same 8 batched, beside 8 others (16) and
 * beside 56 others (64), and compares each one's codes and PCM bytes with its alone run. Per-stage
 * traces (talker output, code-predictor input → output) name the first stage that differs.
 * A second pass with buckets off measures batched throughput only (its codes are known to drift).
 * Run (bundled): node bucket-bench.mjs --work /tmp/w --out $OUT [--frames 32] [--mode auto] [--cpRows 8]
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { buildModel } from '../../src-main/model-builder/build';
import { writeSyntheticCheckpoint } from '../../src-main/model-builder/synthetic-checkpoint';
import { createEngine } from '../../src-main/engine/create-engine';
import type { Engine } from '../../src-main/engine/engine';
import type { CodePredictorRow, TalkerInput, TalkerOutput } from '../../src-main/engine/stages/stages';

const { values: args } = parseArgs({ options: { work: { type: 'string', default: '/tmp/w' }, out: { type: 'string', default: '.cache/bucket-out' }, frames: { type: 'string', default: '32' }, mode: { type: 'string', default: 'auto' }, provider: { type: 'string', default: 'webgpu' }, offRun: { type: 'string', default: '1' }, budgetS: { type: 'string', default: '480' }, size: { type: 'string', default: '0.6b' }, cpRows: { type: 'string', default: '8' } } });
const t0 = performance.now();
const elapsedS = () => (performance.now() - t0) / 1000;
const log = (...xs: unknown[]) => console.log(`[${elapsedS().toFixed(1)}s]`, ...xs);
const results: Record<string, unknown> = { date: new Date().toISOString(), args };
fs.mkdirSync(args.out!, { recursive: true });
const save = () => fs.writeFileSync(path.join(args.out!, 'bucket-bench.json'), JSON.stringify(results, null, 1));
const round = (x: number, d = 3) => Number(x.toFixed(d));
const sha = (...arrays: ArrayLike<number>[]) => {
  const h = createHash('sha256');
  for (const a of arrays) h.update(Buffer.from(Float64Array.from(a).buffer));
  return h.digest('hex').slice(0, 16);
};
const numFrames = Number(args.frames);
const VOICES = ['ryan', 'dylan', 'sohee'];
const TEXTS = ['The quick brown fox jumps over the lazy dog.', 'Shape buckets keep every call the same size, so rows do not drift.'];
function request(tag: string, i: number): SynthesisRequest {
  return { requestId: `${tag}${i}`, input: TEXTS[i % 2], inputFormat: 'text', voice: VOICES[i % 3], language: i % 4 === 3 ? 'auto' : 'english', seed: 1000 + 17 * i, params: { maxNewTokens: numFrames, temperature: 0.9 } };
}

/** Per request: talker output digest per call, and code-predictor input digest → output, in order. */
interface Trace { talker: string[]; cp: { input: string; output: string }[] }
function instrument(engine: Engine, traces: Map<string, Trace>, stageMs: Record<string, number>) {
  const idToRequest = new Map<number, string>();
  const s = engine.parts.stages;
  const wrapTalker = (method: 'prefill' | 'decode') => {
    const original = s.talker[method].bind(s.talker);
    s.talker[method] = async (inputs: readonly TalkerInput[]): Promise<TalkerOutput[]> => {
      const t = performance.now();
      const outs = await original(inputs);
      stageMs.talker += performance.now() - t;
      inputs.forEach((inp, i) => {
        const id = idToRequest.get(inp.sequenceId);
        if (id) traces.get(id)!.talker.push(`${sha(inp.embeds)}>${sha(outs[i].logits, outs[i].hidden)}`);
      });
      return outs;
    };
  };
  wrapTalker('prefill');
  wrapTalker('decode');
  const cpOriginal = s.codePredictor.predict.bind(s.codePredictor);
  s.codePredictor.predict = async (rows: readonly CodePredictorRow[]) => {
    const t = performance.now();
    const outs = await cpOriginal(rows);
    stageMs.codePredictor += performance.now() - t;
    // rows follow the running order; the engine's sequence list gives each row's request
    const running = (engine as unknown as { running: { id: number; status: string; pending: unknown }[] }).running;
    const ids = running.filter((q) => q.pending !== null && q.status === 'running').map((q) => idToRequest.get(q.id));
    rows.forEach((r, i) => {
      const id = ids.length === rows.length ? ids[i] : undefined;
      if (id) traces.get(id)!.cp.push({ input: sha(r.hidden, [r.c0], r.uniforms), output: outs[i].join(',') });
    });
    return outs;
  };
  const codecOriginal = s.codec.decodeBatch.bind(s.codec);
  s.codec.decodeBatch = async (w) => {
    const t = performance.now();
    try { return await codecOriginal(w); } finally { stageMs.codec += performance.now() - t; }
  };
  return (r: SynthesisRequest) => {
    engine.addRequest(r);
    const waiting = (engine as unknown as { waiting: { id: number }[] }).waiting;
    idToRequest.set(waiting[waiting.length - 1].id, r.requestId);
    traces.set(r.requestId, { talker: [], cp: [] });
  };
}

interface Outcome { codes: number[][]; pcmSha: string; audioMs: number; trace: Trace }
async function runBatch(engine: Engine, add: (r: SynthesisRequest) => void, traces: Map<string, Trace>, requests: SynthesisRequest[]) {
  const done = new Map<string, Outcome>();
  const codes = new Map<string, number[][]>();
  const offC = engine.onDidFinishCodes((c) => codes.set(c.requestId, c.codes));
  const offF = engine.onDidFinish((o) => {
    if (o.status !== 'done') return log('failed', JSON.stringify(o).slice(0, 300));
    const r: SynthesisResult = o.result;
    done.set(r.requestId, { codes: codes.get(r.requestId)!, pcmSha: createHash('sha256').update(new Uint8Array(r.pcm.buffer, r.pcm.byteOffset, r.pcm.byteLength)).digest('hex'), audioMs: r.timings.audioDurationMs, trace: traces.get(r.requestId)! });
  });
  for (const r of requests) add(r);
  const t = performance.now();
  while (engine.hasWork()) await engine.step();
  offC();
  offF();
  return { done, wallMs: performance.now() - t };
}

/** Where `got` first leaves `alone`: frame, and whether talker output or code-predictor output (same input) differed. */
function compare(alone: Outcome, got: Outcome | undefined): { sameCodes?: boolean; samePcm?: boolean; [key: string]: unknown } {
  if (!got) return { finished: false };
  const sameCodes = JSON.stringify(alone.codes) === JSON.stringify(got.codes);
  const samePcm = alone.pcmSha === got.pcmSha;
  const out: Record<string, unknown> = { sameCodes, samePcm, numFramesAlone: alone.codes.length, numFrames: got.codes.length };
  if (sameCodes && samePcm) return out;
  if (sameCodes) return { ...out, firstStage: 'codec (codes identical, PCM differs)' };
  const talkerAt = alone.trace.talker.findIndex((x, i) => got.trace.talker[i] !== x);
  const cpAt = alone.trace.cp.findIndex((x, i) => !got.trace.cp[i] || got.trace.cp[i].input !== x.input || got.trace.cp[i].output !== x.output);
  const cpRow = cpAt >= 0 ? got.trace.cp[cpAt] : undefined;
  const cpInputSame = cpRow ? cpRow.input === alone.trace.cp[cpAt].input : null;
  // talker call k (0 = prefill) produces the input of code-predictor frame k
  const firstStage = cpAt >= 0 && cpInputSame && (talkerAt < 0 || talkerAt > cpAt) ? 'code predictor (same input row, other codes)' : talkerAt >= 0 ? 'talker (same embeds in, other logits/hidden out) or an earlier stage' : 'unknown';
  return { ...out, firstTalkerCallDiffering: talkerAt, firstCodePredictorFrameDiffering: cpAt, cpInputSameThere: cpInputSame, firstStage, talkerEmbedsSameThere: talkerAt >= 0 ? alone.trace.talker[talkerAt].split('>')[0] === got.trace.talker[talkerAt]?.split('>')[0] : null };
}

const throughput = (done: Map<string, Outcome>, wallMs: number) => round([...done.values()].reduce((a, o) => a + o.audioMs, 0) / wallMs);

async function main() {
  const ckpt = path.join(args.work!, `ckpt-${args.size}`);
  if (!fs.existsSync(path.join(ckpt, 'speech_tokenizer', 'model.safetensors'))) await writeSyntheticCheckpoint({ size: args.size as '0.6b' | 'tiny', seed: 1, outDir: ckpt });
  const { builtDir } = await buildModel({ checkpointDir: ckpt, outDir: path.join(args.work!, 'built'), dtype: args.provider === 'cpu' ? 'fp32' : 'fp16' });
  log('built', builtDir);
  let serial8 = { audioSecondsPerSecond: NaN };
  const modes = args.offRun === '1' ? [args.mode!, 'off'] : [args.mode!];
  for (const mode of modes) {
    const key = `mode_${mode}`;
    if (elapsedS() > Number(args.budgetS)) { log('budget spent, skipping', key); continue; }
    const engine = await createEngine({ modelDir: builtDir, config: { provider: args.provider, maxRunningSequences: 64, maxPrefillSequences: 64, shapeBuckets: { mode, codePredictorRows: Number(args.cpRows) } }, log });
    const traces = new Map<string, Trace>();
    const stageMs = { talker: 0, codePredictor: 0, codec: 0 };
    const add = instrument(engine, traces, stageMs);
    const section: Record<string, unknown> = { codePredictorClass: engine.parts.stages.codePredictor.constructor.name };
    results[key] = section;
    await runBatch(engine, add, traces, Array.from({ length: 8 }, (_, i) => ({ ...request(`warm${mode}`, i), params: { maxNewTokens: 6 } })));
    await runBatch(engine, add, traces, [{ ...request(`warm1${mode}`, 0), params: { maxNewTokens: 6 } }]);
    const refs = Array.from({ length: 8 }, (_, i) => request(`R${mode}-`, i));
    const alone = new Map<string, Outcome>();
    let serialWallMs = 0;
    const reset = () => Object.keys(stageMs).forEach((k) => (stageMs[k as keyof typeof stageMs] = 0));
    reset();
    const baseline = mode === 'off' && modes.length > 1; // the off pass measures throughput only, against the first pass's serial baseline
    for (const r of baseline ? [] : refs) {
      const run = await runBatch(engine, add, traces, [r]);
      serialWallMs += run.wallMs;
      alone.set(r.requestId, run.done.get(r.requestId)!);
    }
    if (!baseline) section.serial8 = { wallMs: round(serialWallMs, 0), audioSecondsPerSecond: throughput(alone, serialWallMs), numFrames: [...alone.values()].map((o) => o.codes.length), stageMs: { ...stageMs } };
    if (!baseline) serial8 = section.serial8 as { audioSecondsPerSecond: number };
    log(mode, 'serial8', JSON.stringify(section.serial8));
    const layouts: Record<string, number[]> = { batched8: [0, 1, 2, 3, 4, 5, 6, 7], batched16: [1, 3, 6, 8, 10, 12, 13, 15], batched64: [5, 12, 20, 31, 40, 47, 55, 63] };
    for (const [name, positions] of Object.entries(layouts)) {
      if (baseline && name === 'batched16') continue;
      if (elapsedS() > Number(args.budgetS)) { log('budget spent, skipping', name); continue; }
      const n = Math.max(...positions) + 1;
      const batch: SynthesisRequest[] = [];
      for (let p = 0; p < n; p++) batch.push(positions.includes(p) ? { ...refs[positions.indexOf(p)], requestId: `${refs[positions.indexOf(p)].requestId}@${name}` } : request(`M${mode}${name}-`, 100 + p));
      // the refs keep their params/seed; only the id differs
      reset();
      const run = await runBatch(engine, add, traces, batch);
      const checks = baseline ? [] : refs.map((r, i) => ({ request: r.requestId, position: positions[i], ...compare(alone.get(r.requestId)!, run.done.get(`${r.requestId}@${name}`)) }));
      section[name] = { numRequests: n, numFinished: run.done.size, wallMs: round(run.wallMs, 0), audioSecondsPerSecond: throughput(run.done, run.wallMs), vsSerial8: round(throughput(run.done, run.wallMs) / serial8.audioSecondsPerSecond, 2), numValid: checks.filter((c) => c.sameCodes && c.samePcm).length, numChecked: checks.length, stageMs: Object.fromEntries(Object.entries(stageMs).map(([a, b]) => [a, round(b, 0)])), checks };
      log(mode, name, JSON.stringify({ ...(section[name] as object), checks: undefined }), JSON.stringify(checks.filter((c) => !(c.sameCodes && c.samePcm))));
      save();
    }
    await engine.dispose();
  }
  results.totalS = round(elapsedS(), 1);
  save();
  log('done');
}
main().catch((e) => { results.error = String(e?.stack ?? e); save(); console.error(e); process.exitCode = 1; });
