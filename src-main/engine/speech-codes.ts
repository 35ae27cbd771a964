/**
 * Turns reference clips into speech-tokenizer codes with a Base model's compiled encoder (in-context
 * cloning): pads each clip with zeros to a whole number of frames, runs clips as one ragged batch (every
 * layer is causal, so a row's codes do not depend on its batch-mates) and returns ⌈len / 1920⌉ frames
 * of 16 codes per clip, as the official encode keeps. CPU; once per voice, not on the synthesis path.
 */
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import type { ModelManifest } from '../model-format/manifest';
import { SPEECH_ENCODER_CODES, SPEECH_ENCODER_INPUT } from '../model-format/encoder-io';
import { createSession, disposeSession, runSession, tensor, type OrtSession } from './runtime/ort';

export interface SpeechCodeEncoder {
  readonly sampleRateHz: number;
  /** Codes [numFrames][numQuantizers] per clip; clips are mono PCM at sampleRateHz. */
  encode(clips: readonly Float32Array[]): Promise<number[][][]>;
  dispose(): Promise<void>;
}

export async function createSpeechCodeEncoder(builtDir: string, manifest: Pick<ModelManifest, 'speechEncoder' | 'ttsModelType'>, intraOpNumThreads = 0): Promise<SpeechCodeEncoder> {
  const spec = manifest.speechEncoder;
  if (!spec) {
    const fix = manifest.ttsModelType === 'base' ? 'rebuild the model (builds before the encoder was added lack it)' : 'cloning a voice needs a Base checkpoint (Qwen3-TTS-12Hz-0.6B-Base or 1.7B-Base)';
    throw new StudioError('unsupported', `this ${manifest.ttsModelType} model has no speech encoder for in-context cloning; ${fix}`, { field: 'model', validValues: ['base'] });
  }
  const session: OrtSession = await createSession(path.join(builtDir, spec.file), { provider: 'cpu', intraOpNumThreads });
  const spf = spec.samplesPerFrame;
  return {
    sampleRateHz: spec.sampleRateHz,
    async encode(clips) {
      if (clips.length === 0) return [];
      const numFrames = clips.map((c) => Math.ceil(c.length / spf));
      if (numFrames.some((n) => n === 0)) throw new StudioError('invalid-argument', 'a reference clip is empty; give 5–15 s of one person speaking', { field: 'referenceAudio' });
      const numSamples = numFrames.reduce((a, b) => Math.max(a, b), 0) * spf;
      const data = new Float32Array(clips.length * numSamples); // zeros after each clip
      clips.forEach((c, i) => data.set(c, i * numSamples));
      const out = await runSession(session, { [SPEECH_ENCODER_INPUT]: tensor('float32', data, [clips.length, numSamples]) });
      const codes = out[SPEECH_ENCODER_CODES].data as BigInt64Array; // [B, Q, F]
      const q = spec.numQuantizers;
      const f = numSamples / spf;
      return numFrames.map((n, b) => Array.from({ length: n }, (_, t) => Array.from({ length: q }, (_, j) => Number(codes[(b * q + j) * f + t]))));
    },
    dispose: () => disposeSession(session),
  };
}
