/**
 * Makes a saveable clone prompt from a reference clip for a Base model, as the official
 * create_voice_clone_prompt does: the clip is prepared once (24 kHz, trimmed, checked), the speaker
 * encoder gives its x-vector and, in in-context mode (the official default), the speech encoder gives
 * its codes, stored with the transcript. The record goes into SynthesisRequest via clonePromptFields().
 */
import { StudioError } from '../../src-shared/errors';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import type { ClonePrompt, ClonePromptMode } from '../../src-shared/voice-clone';
import { decodeReferenceAudio } from '../audio/reference-audio';
import { prepareReferenceClip } from '../audio/reference-clip';
import type { ModelManifest } from '../model-format/manifest';
import { createSpeakerEncoder, type SpeakerEncoder } from './speaker-embedding';
import { createSpeechCodeEncoder, type SpeechCodeEncoder } from './speech-codes';

export interface ClonePromptResult {
  prompt: ClonePrompt;
  /** Seconds of sound the prompt was made from, after trimming silence. */
  durationMs: number;
  warnings: string[];
}

export interface ClonePromptInput {
  /** Mono PCM at sampleRateHz (any rate; resampled to the encoders' 24 kHz). */
  pcm: Float32Array;
  sampleRateHz: number;
  /** The transcript of the clip; required in 'icl' mode. */
  refText?: string;
  /** Default 'icl' (generate_voice_clone's x_vector_only_mode=False). */
  mode?: ClonePromptMode;
}

export interface VoiceCloner {
  createClonePrompt(input: ClonePromptInput): Promise<ClonePromptResult>;
  /** The same from a clip's file bytes (see reference-audio.ts for the formats). */
  createClonePromptFromBytes(bytes: Uint8Array, options: Omit<ClonePromptInput, 'pcm' | 'sampleRateHz'>): Promise<ClonePromptResult>;
  dispose(): Promise<void>;
}

/** Opens a built Base model's speaker encoder and (when built) speech encoder on the CPU. */
export async function createVoiceCloner(builtDir: string, manifest: Pick<ModelManifest, 'speakerEncoder' | 'speechEncoder' | 'ttsModelType'>): Promise<VoiceCloner> {
  const speaker: SpeakerEncoder = await createSpeakerEncoder(builtDir, manifest);
  let codes: SpeechCodeEncoder | null = null;
  const createClonePrompt = async (input: ClonePromptInput): Promise<ClonePromptResult> => {
    const mode = input.mode ?? 'icl';
    const refText = input.refText?.trim() ?? '';
    if (mode === 'icl' && refText.length === 0) {
      throw new StudioError('invalid-argument', "in-context cloning ('icl', the default) needs the transcript of the reference clip; type what is said in it, or clone in 'xvector' mode (timbre only, no transcript)", {
        field: 'refText',
      });
    }
    const clip = prepareReferenceClip(input.pcm, input.sampleRateHz);
    const { embedding } = await speaker.embedPrepared(clip);
    const prompt: ClonePrompt = { mode, embedding: [...embedding] };
    if (mode === 'icl') {
      codes ??= await createSpeechCodeEncoder(builtDir, manifest);
      if (codes.sampleRateHz !== clip.sampleRateHz) throw new StudioError('model-invalid', `the speech encoder takes ${codes.sampleRateHz} Hz but clips are prepared at ${clip.sampleRateHz} Hz; rebuild the model`, {});
      [prompt.refCodes] = await codes.encode([clip.pcm]);
      prompt.refText = refText;
    }
    return { prompt, durationMs: clip.durationMs, warnings: clip.warnings };
  };
  return {
    createClonePrompt,
    async createClonePromptFromBytes(bytes, options) {
      const decoded = await decodeReferenceAudio(bytes);
      return createClonePrompt({ ...options, pcm: decoded.pcm, sampleRateHz: decoded.sampleRateHz });
    },
    async dispose() {
      await speaker.dispose();
      await codes?.dispose();
    },
  };
}

/** The request fields a clone prompt sets: the x-vector, plus the reference codes and text in 'icl' mode. */
export function clonePromptFields(prompt: ClonePrompt): Pick<SynthesisRequest, 'speakerEmbedding' | 'refCodes' | 'refText'> {
  return prompt.mode === 'icl' ? { speakerEmbedding: prompt.embedding, refCodes: prompt.refCodes, refText: prompt.refText } : { speakerEmbedding: prompt.embedding };
}
