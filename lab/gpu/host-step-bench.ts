/**
 * Lab: the engine's own host cost per step, with no model in the way. (a) One talker row's
 * codebook-0 sampling at the 0.6B vocabulary, top-k by sorting the row against top-k by selection,
 * side by side. (b) Engine steps over instant stages with full-size shapes (3,072 logits, 1,024
 * hidden, 16 codebooks, 1,920 samples a frame), at 8 and 64 rows. Not a test; prints JSON.
 * Run: npx tsx lab/gpu/host-step-bench.ts [--rows 8,64] [--frames 48]
 */
import { parseArgs } from 'node:util';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { Engine } from '../../src-main/engine/engine';
import { resolveEngineConfig } from '../../src-main/engine/engine-config';
import type { CodecStreamRow, ModelStages, TalkerInput } from '../../src-main/engine/stages/stages';
import { applyTopK, kthLargestBySort } from '../../src-main/engine/sampling/logits-processors';
import { sampleTalkerToken } from '../../src-main/engine/sampling/sampler';
import { fakeManifest, fakeTokenizer } from '../../src-main/engine/testing/fake-stages';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '8,64' }, frames: { type: 'string', default: '48' } } });
const HIDDEN = 1024, VOCAB = 3072, GROUPS = 16, SAMPLES_PER_FRAME = 1920, EOS = 2150;
const round = (x: number) => Number(x.toFixed(4));

/** Logits rows shaped like the talker's: 2,048 codes, a suppressed control range, EOS far below. */
const bank = Array.from({ length: 97 }, (_, t) => Float32Array.from({ length: VOCAB }, (_, v) => (v === EOS ? -100 : 4 * Math.sin(v * 0.37 + t))));
const rules = { eosId: EOS, controlStartId: 2048, controlEndId: VOCAB, minNewTokens: 2 };
const params = { doSample: true, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05 };
const past = Array.from({ length: 100 }, (_, i) => (i * 37) % 2048);

function sortTopK(logits: Float32Array, topK: number): void {
  const kth = kthLargestBySort(logits, topK);
  for (let i = 0; i < logits.length; i++) if (logits[i] < kth) logits[i] = -Infinity;
}

/** ms per talker row of the sampler, and a checksum of the picks (equal for both top-k paths). */
function timeSampler(topK: (logits: Float32Array, k: number) => void, numRows: number): { msPerRow: number; checksum: number } {
  let checksum = 0;
  const t = performance.now();
  for (let i = 0; i < numRows; i++) {
    const logits = bank[i % bank.length].slice();
    topK(logits, params.topK);
    checksum += sampleTalkerToken(logits, { pastTokens: past, numGenerated: 100 }, { ...params, topK: 0 }, rules, (i % 89) / 89);
  }
  return { msPerRow: round((performance.now() - t) / numRows), checksum };
}

function fullSizeStages(): ModelStages {
  const rows = Array.from({ length: 257 }, (_, r) => Float32Array.from({ length: HIDDEN }, (_, k) => Math.sin(r * 0.1 + k)));
  const add = (key: number, out: Float32Array, offset: number) => {
    const row = rows[key % rows.length]; // the real tables cache each row as float32 after its first read
    for (let k = 0; k < HIDDEN; k++) out[offset + k] += row[k];
  };
  let tick = 0;
  const talkerRun = async (inputs: readonly TalkerInput[]) => inputs.map((input) => ({ logits: bank[tick++ % bank.length].slice(), hidden: input.embeds.slice(0, HIDDEN) }));
  const pcm = (numFrames: number) => new Float32Array(numFrames * SAMPLES_PER_FRAME);
  return {
    talker: { hiddenSize: HIDDEN, prefill: talkerRun, decode: talkerRun, release() {}, async dispose() {} },
    codePredictor: { predict: async (rs) => rs.map((r) => Array.from({ length: GROUPS - 1 }, (_, j) => (r.c0 + j) % 2048)), async dispose() {} },
    codec: {
      sampleRateHz: 24000, samplesPerFrame: SAMPLES_PER_FRAME, streaming: true,
      decode: async (codes) => pcm(codes.length),
      decodeBatch: async (windows) => windows.map((w) => pcm(w.length)),
      decodeStreamBatch: async (rs: readonly CodecStreamRow[]) => rs.map((r) => pcm(r.window.length)),
      releaseStream() {},
      async dispose() {},
    },
    embeddings: {
      hiddenSize: HIDDEN,
      addText: (id, out, offset) => add(id, out, offset),
      addCodec: (id, out, offset) => add(100_000 + id, out, offset),
      addCodePredictorCodec: (table, code, out, offset) => add(200_000 + table * 2048 + code, out, offset),
    },
    numCodeGroups: GROUPS,
  };
}

/** ms per engine step (and per row-step) over instant stages; the second of two rounds is reported. */
async function timeEngine(numRows: number, numFrames: number): Promise<{ msPerStep: number; msPerRowStep: number }> {
  const manifest = fakeManifest();
  Object.assign(manifest, {
    numCodeGroups: GROUPS,
    talker: { ...manifest.talker, vocabSize: VOCAB, hiddenSize: HIDDEN },
    codePredictor: { vocabSize: 2048 },
    codecTokens: { eos: EOS, think: 2154, nothink: 2155, thinkBos: 2156, thinkEos: 2157, pad: 2148, bos: 2149 },
    speakers: { ryan: { codecId: 3000, dialect: null } },
    languages: { english: 2050 },
  });
  const config = resolveEngineConfig({ maxRunningSequences: numRows, maxPrefillSequences: numRows, minFramesCap: numFrames, framesPerTextToken: 0 });
  const engine = new Engine({ manifest, tokenizer: fakeTokenizer(), stages: fullSizeStages(), config, provider: { name: 'cpu', reason: 'lab' } });
  let result = { msPerStep: 0, msPerRowStep: 0 };
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < numRows; i++) {
      const request: SynthesisRequest = { requestId: `r${pass}-${i}`, input: 'The quick brown fox jumps over the lazy dog.', inputFormat: 'text', voice: 'ryan', language: 'english', seed: i, params: { maxNewTokens: numFrames } };
      engine.addRequest(request);
    }
    const t = performance.now();
    let numSteps = 0;
    for (; engine.hasWork(); numSteps++) await engine.step();
    const msPerStep = (performance.now() - t) / numSteps;
    result = { msPerStep: round(msPerStep), msPerRowStep: round(msPerStep / numRows) };
  }
  await engine.dispose();
  return result;
}

timeSampler(sortTopK, 500); // warm-up, both paths
timeSampler(applyTopK, 500);
const sampler = { sortTopK: timeSampler(sortTopK, 4000), selectTopK: timeSampler(applyTopK, 4000), sortTopKAgain: timeSampler(sortTopK, 4000), selectTopKAgain: timeSampler(applyTopK, 4000) };
const engineSteps: Record<string, unknown> = {};
for (const numRows of args.rows!.split(',').map(Number)) engineSteps[`rows${numRows}`] = await timeEngine(numRows, Number(args.frames));
console.log(JSON.stringify({ date: new Date().toISOString(), node: process.version, sampler, engineSteps }, null, 1));
