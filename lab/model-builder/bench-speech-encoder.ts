/**
 * Benchmark script (not a test): time to encode a 10 s reference clip into speech-tokenizer codes on the
 * CPU (in-context cloning), with a tiny or full-size (official Mimi widths, synthetic weights) encoder:
 * clip preparation (48 kHz → 24 kHz, trim, checks) and the ONNX encoder, each timed; plus the one-off
 * graph build and session load, and the slow reference once for scale.
 * Run: npx tsx lab/model-builder/bench-speech-encoder.ts [--size tiny|full] [--threads N]. One JSON line.
 */
import { parseArgs } from 'node:util';
import { prepareReferenceClip } from '../../src-main/audio/reference-clip';
import { createSession, disposeSession, runSession, tensor } from '../../src-main/engine/runtime/ort';
import { referenceSpeechEncode } from '../../src-main/model-builder/speech-encoder/reference-speech-encoder';
import { parseSpeechEncoderConfig, usedSpeechEncoderTensors } from '../../src-main/model-builder/speech-encoder/speech-encoder-config';
import { buildSpeechEncoderGraph } from '../../src-main/model-builder/speech-encoder/speech-encoder-graph';
import { SPEECH_ENCODER_CODES, SPEECH_ENCODER_INPUT } from '../../src-main/model-format/encoder-io';
import { syntheticSpeechEncoderConfig, syntheticSpeechEncoderTensors, type SyntheticSpeechEncoderSize } from '../../src-main/model-builder/speech-encoder/synthetic-speech-encoder';

const NUM_RUNS = 3;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { size: { type: 'string', default: 'full' }, threads: { type: 'string', default: '0' }, reference: { type: 'boolean', default: false } } });
  const size = values.size as SyntheticSpeechEncoderSize;
  const raw = syntheticSpeechEncoderConfig(size);
  const config = parseSpeechEncoderConfig({ encoder_config: raw, encoder_valid_num_quantizers: 16 });
  const used = new Set(usedSpeechEncoderTensors(config).map((t) => t.name));
  const weights = new Map([...syntheticSpeechEncoderTensors(raw, 1)].filter((t) => used.has(t.name)).map((t) => [t.name, t]));
  let started = performance.now();
  const graph = buildSpeechEncoderGraph(config, weights);
  const buildMs = performance.now() - started;
  started = performance.now();
  const session = await createSession(graph, { provider: 'cpu', intraOpNumThreads: Number(values.threads) });
  const loadMs = performance.now() - started;
  const rate = 48000;
  const clip = Float32Array.from({ length: 10 * rate }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 140 * i) / rate) * (1 + 0.4 * Math.sin((2 * Math.PI * 3 * i) / rate)));
  const runs: { prepareMs: number; encoderMs: number; totalMs: number }[] = [];
  let numFrames = 0;
  let padded = new Float32Array(0);
  for (let r = 0; r <= NUM_RUNS; r++) {
    const t0 = performance.now();
    const prepared = prepareReferenceClip(clip, rate);
    numFrames = Math.ceil(prepared.pcm.length / config.samplesPerFrame);
    padded = new Float32Array(numFrames * config.samplesPerFrame);
    padded.set(prepared.pcm);
    const t1 = performance.now();
    const out = await runSession(session, { [SPEECH_ENCODER_INPUT]: tensor('float32', padded, [1, padded.length]) });
    const t2 = performance.now();
    if (out[SPEECH_ENCODER_CODES].dims[2] !== numFrames) throw new Error('wrong frame count');
    if (r > 0) runs.push({ prepareMs: t1 - t0, encoderMs: t2 - t1, totalMs: t2 - t0 }); // run 0 warms up
  }
  await disposeSession(session);
  let referenceMs: number | null = null;
  if (values.reference) {
    started = performance.now();
    referenceSpeechEncode(padded, config, weights);
    referenceMs = Math.round(performance.now() - started);
  }
  const mean = (k: keyof (typeof runs)[0]) => Math.round(runs.reduce((s, x) => s + x[k], 0) / runs.length);
  console.log(JSON.stringify({ size, clipSeconds: 10, inputRateHz: rate, numFrames, graphMB: Number((graph.length / 1e6).toFixed(1)), buildMs: Math.round(buildMs), loadMs: Math.round(loadMs), prepareMs: mean('prepareMs'), encoderMs: mean('encoderMs'), totalMs: mean('totalMs'), referenceMs }));
}

await main();
