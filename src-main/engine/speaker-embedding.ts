/**
 * Makes a voice from a reference clip for a Base model (the x-vector clone mode of generate_voice_clone):
 * prepares the clip (24 kHz, trimmed, checked), computes the log-mel rows and runs the built speaker
 * encoder. Its output goes into SynthesisRequest.speakerEmbedding. Not on the synthesis hot path.
 */
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { logMelSpectrogram, speakerEncoderMelParams } from '../audio/mel-spectrogram';
import { decodeReferenceAudio } from '../audio/reference-audio';
import { prepareReferenceClip, type PreparedReference } from '../audio/reference-clip';
import type { ModelManifest } from '../model-format/manifest';
import { SPEAKER_ENCODER_INPUT, SPEAKER_ENCODER_OUTPUT } from '../model-format/encoder-io';
import { createSession, disposeSession, runSession, tensor, type OrtSession } from './runtime/ort';

export interface SpeakerEmbedding {
  /** talker.hiddenSize values. */
  embedding: Float32Array;
  /** Seconds of sound the embedding was made from (after trimming). */
  durationMs: number;
  warnings: string[];
}

export interface SpeakerEncoder {
  embed(pcm: Float32Array, sampleRateHz: number): Promise<SpeakerEmbedding>;
  /** The same from a clip prepareReferenceClip already made (at the encoder's rate). */
  embedPrepared(clip: PreparedReference): Promise<SpeakerEmbedding>;
  /** The same from a clip's file bytes (WAV, MP3, FLAC, Ogg Vorbis/Opus of any rate and channel count; see reference-audio.ts). */
  embedBytes(bytes: Uint8Array): Promise<SpeakerEmbedding>;
  dispose(): Promise<void>;
}

/** Opens the speaker encoder of a built Base model on the CPU (it runs once per voice). */
export async function createSpeakerEncoder(builtDir: string, manifest: Pick<ModelManifest, 'speakerEncoder' | 'ttsModelType'>): Promise<SpeakerEncoder> {
  const spec = manifest.speakerEncoder;
  if (!spec) {
    throw new StudioError('unsupported', `a ${manifest.ttsModelType} model has no speaker encoder; cloning a voice needs a Base checkpoint (Qwen3-TTS-12Hz-0.6B-Base or 1.7B-Base)`, {
      field: 'model',
      validValues: ['base'],
    });
  }
  const mel = speakerEncoderMelParams();
  if (spec.melDim !== mel.numMels || spec.sampleRateHz !== mel.sampleRateHz) {
    throw new StudioError('model-invalid', `the speaker encoder takes ${spec.melDim} mels at ${spec.sampleRateHz} Hz but the front end gives ${mel.numMels} at ${mel.sampleRateHz} Hz; rebuild the model`, {});
  }
  const session: OrtSession = await createSession(path.join(builtDir, spec.file), { provider: 'cpu' });
  const embedPrepared = async (clip: PreparedReference): Promise<SpeakerEmbedding> => {
    if (clip.sampleRateHz !== mel.sampleRateHz) throw new StudioError('internal', `the clip was prepared at ${clip.sampleRateHz} Hz but the speaker encoder takes ${mel.sampleRateHz} Hz`, {});
    const { data, numFrames } = logMelSpectrogram(clip.pcm, mel);
    const out = await runSession(session, { [SPEAKER_ENCODER_INPUT]: tensor('float32', data, [1, numFrames, mel.numMels]) });
    const embedding = Float32Array.from(out[SPEAKER_ENCODER_OUTPUT].data as Float32Array);
    return { embedding, durationMs: clip.durationMs, warnings: clip.warnings };
  };
  const embed = (pcm: Float32Array, sampleRateHz: number) => embedPrepared(prepareReferenceClip(pcm, sampleRateHz, mel.sampleRateHz));
  return {
    embed,
    embedPrepared,
    async embedBytes(bytes) {
      const decoded = await decodeReferenceAudio(bytes);
      return embed(decoded.pcm, decoded.sampleRateHz);
    },
    dispose: () => disposeSession(session),
  };
}
