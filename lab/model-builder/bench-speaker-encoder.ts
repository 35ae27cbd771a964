/**
 * Benchmark script (not a test): time to make a voice from a 10 s clip on the CPU with a full-size
 * (official widths, synthetic weights) speaker encoder: clip preparation (48 kHz → 24 kHz, trim, checks),
 * log-mel front end, and the ONNX encoder, each timed; plus the one-off graph build and session load.
 * Run: npx tsx lab/model-builder/bench-speaker-encoder.ts [--enc-dim 1024|2048]. One JSON line.
 */
import { parseArgs } from 'node:util';
import { logMelSpectrogram, speakerEncoderMelParams } from '../../src-main/audio/mel-spectrogram';
import { prepareReferenceClip } from '../../src-main/audio/reference-clip';
import { createSession, disposeSession, runSession, tensor } from '../../src-main/engine/runtime/ort';
import { parseSpeakerEncoderConfig } from '../../src-main/model-builder/speaker-encoder/speaker-encoder-config';
import { buildSpeakerEncoderGraph } from '../../src-main/model-builder/speaker-encoder/speaker-encoder-graph';
import { SPEAKER_ENCODER_INPUT, SPEAKER_ENCODER_OUTPUT } from '../../src-main/model-format/encoder-io';
import { syntheticSpeakerEncoderConfig, syntheticSpeakerEncoderTensors } from '../../src-main/model-builder/speaker-encoder/synthetic-speaker-encoder';

const NUM_RUNS = 3;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'enc-dim': { type: 'string', default: '1024' } } });
  const raw = syntheticSpeakerEncoderConfig('full', Number(values['enc-dim']));
  const config = parseSpeakerEncoderConfig(raw);
  let started = performance.now();
  const graph = buildSpeakerEncoderGraph(config, new Map([...syntheticSpeakerEncoderTensors(raw, 1)].map((t) => [t.name, t])));
  const buildMs = performance.now() - started;
  started = performance.now();
  const session = await createSession(graph, { provider: 'cpu' });
  const loadMs = performance.now() - started;
  const rate = 48000;
  const clip = Float32Array.from({ length: 10 * rate }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 140 * i) / rate) * (1 + 0.4 * Math.sin((2 * Math.PI * 3 * i) / rate)));
  const runs: { prepareMs: number; melMs: number; encoderMs: number; totalMs: number }[] = [];
  for (let r = 0; r <= NUM_RUNS; r++) {
    const t0 = performance.now();
    const prepared = prepareReferenceClip(clip, rate);
    const t1 = performance.now();
    const mel = logMelSpectrogram(prepared.pcm, speakerEncoderMelParams());
    const t2 = performance.now();
    const out = await runSession(session, { [SPEAKER_ENCODER_INPUT]: tensor('float32', mel.data, [1, mel.numFrames, config.melDim]) });
    const t3 = performance.now();
    if ((out[SPEAKER_ENCODER_OUTPUT].data as Float32Array).length !== config.encDim) throw new Error('wrong x-vector width');
    if (r > 0) runs.push({ prepareMs: t1 - t0, melMs: t2 - t1, encoderMs: t3 - t2, totalMs: t3 - t0 }); // run 0 warms up
  }
  await disposeSession(session);
  const mean = (k: keyof (typeof runs)[0]) => Math.round(runs.reduce((s, x) => s + x[k], 0) / runs.length);
  console.log(JSON.stringify({ clipSeconds: 10, inputRateHz: rate, encDim: config.encDim, graphMB: Number((graph.length / 1e6).toFixed(1)), buildMs: Math.round(buildMs), loadMs: Math.round(loadMs), prepareMs: mean('prepareMs'), melMs: mean('melMs'), encoderMs: mean('encoderMs'), totalMs: mean('totalMs') }));
}

await main();
