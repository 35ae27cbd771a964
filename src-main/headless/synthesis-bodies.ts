/**
 * The two synthesis routes' request bodies and how each becomes a SynthesisRequest:
 * POST /v1/audio/speech as OpenAI documents it (formats, voices, speed, stream_format) plus
 * documented extensions (seed, language, params, input_format ssml with ssml_dialect and lenient, loudness), and
 * POST /api/v1/tts (text or SSML, read with ssml_dialect and lenient). Both use
 * the contract's sampling schema; unknown fields are refused by name. Pure: no I/O.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AUDIO_FORMATS, DEFAULT_OUTPUT_LOUDNESS, OUTPUT_LOUDNESS_LIMITS } from '../../src-shared/audio-format';
import { StudioError } from '../../src-shared/errors';
import { DEFAULT_SEED } from '../../src-shared/sampling-limits';
import type { SsmlRequestOptions, SynthesisRequest } from '../../src-shared/synthesis';
import { samplingParamsSchema, seedSchema, ssmlRequestOptionsSchema } from '../api/schemas';

/** response_format: OpenAI's formats (src-shared/audio-format.ts), encoded by src-main/audio/encode-audio.ts. */
const SPEECH_FORMATS = AUDIO_FORMATS;

/** OpenAI's model names are accepted as aliases of whatever model this host has loaded. */
export const OPENAI_MODEL_ALIASES = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'gpt-4o-mini-tts-2025-12-15', 'qwen3-tts'] as const;

const MAX_INPUT_CHARS = 1_048_576;

/** How SSML is read (issue 26): `ssml_dialect` (auto default, ssml11, azure, google, polly) and `lenient` (default false). */
const ssmlReadingFields = {
  ssml_dialect: ssmlRequestOptionsSchema.shape.dialect,
  lenient: ssmlRequestOptionsSchema.shape.lenient,
};

/**
 * Output loudness (extension): `{"target_lufs": -23, "true_peak_ceiling_dbtp": -2}`; a field left
 * out takes the default (-16 LUFS, -1 dBTP). Out-of-range values are refused naming the field and range.
 */
const { targetLufs: lufsLimits, truePeakCeilingDbtp: ceilingLimits } = OUTPUT_LOUDNESS_LIMITS;
export const loudnessBodySchema = z.strictObject({
  target_lufs: z
    .number({ message: 'loudness.target_lufs must be a number of LUFS' })
    .min(lufsLimits.min, `loudness.target_lufs must be from ${lufsLimits.min} to ${lufsLimits.max} LUFS`)
    .max(lufsLimits.max, `loudness.target_lufs must be from ${lufsLimits.min} to ${lufsLimits.max} LUFS`)
    .optional(),
  true_peak_ceiling_dbtp: z
    .number({ message: 'loudness.true_peak_ceiling_dbtp must be a number of dBTP' })
    .min(ceilingLimits.min, `loudness.true_peak_ceiling_dbtp must be from ${ceilingLimits.min} to ${ceilingLimits.max} dBTP`)
    .max(ceilingLimits.max, `loudness.true_peak_ceiling_dbtp must be from ${ceilingLimits.min} to ${ceilingLimits.max} dBTP`)
    .optional(),
});

function loudnessOf(body: { loudness?: z.infer<typeof loudnessBodySchema> }): Pick<SynthesisRequest, 'loudness'> {
  if (!body.loudness) return {};
  return {
    loudness: {
      targetLufs: body.loudness.target_lufs ?? DEFAULT_OUTPUT_LOUDNESS.targetLufs,
      truePeakCeilingDbtp: body.loudness.true_peak_ceiling_dbtp ?? DEFAULT_OUTPUT_LOUDNESS.truePeakCeilingDbtp,
    },
  };
}

function ssmlOptionsOf(body: { ssml_dialect?: SsmlRequestOptions['dialect']; lenient?: boolean }): Pick<SynthesisRequest, 'ssmlOptions'> {
  if (body.ssml_dialect === undefined && body.lenient === undefined) return {};
  return { ssmlOptions: { ...(body.ssml_dialect !== undefined ? { dialect: body.ssml_dialect } : {}), ...(body.lenient !== undefined ? { lenient: body.lenient } : {}) } };
}

export const speechBodySchema = z.strictObject({
  model: z.string().min(1).max(200).optional(),
  input: z.string().min(1, 'input must not be empty').max(MAX_INPUT_CHARS),
  voice: z.union([z.string().min(1).max(64), z.strictObject({ id: z.string().min(1).max(64) })]),
  instructions: z.string().max(4096).optional(),
  response_format: z.enum(SPEECH_FORMATS).default('mp3'),
  speed: z.number().min(0.25).max(4).default(1),
  stream_format: z.enum(['audio', 'sse']).default('audio'),
  // Extensions (documented in the README): not part of OpenAI's API.
  seed: seedSchema.optional(),
  language: z.string().min(1).max(64).optional(),
  params: samplingParamsSchema.optional(),
  stream: z.boolean().optional(),
  /** "ssml": input is an SSML document, read with ssml_dialect and lenient. */
  input_format: z.enum(['text', 'ssml']).default('text'),
  loudness: loudnessBodySchema.optional(),
  ...ssmlReadingFields,
});
export type SpeechBody = z.infer<typeof speechBodySchema>;

export const ttsBodySchema = z.strictObject({
  text: z.string().max(MAX_INPUT_CHARS).optional(),
  ssml: z.union([z.string().max(MAX_INPUT_CHARS), z.boolean()]).optional(),
  voice: z.string().min(1).max(64),
  language: z.string().min(1).max(64).optional(),
  seed: seedSchema.optional(),
  instruct: z.string().max(4096).optional(),
  /** The load-test shape's older name for `instruct`. */
  emotion: z.string().max(4096).optional(),
  params: samplingParamsSchema.optional(),
  response_format: z.enum(SPEECH_FORMATS).default('wav'),
  speed: z.number().min(0.25).max(4).default(1),
  stream: z.boolean().optional(),
  loudness: loudnessBodySchema.optional(),
  ...ssmlReadingFields,
});
export type TtsBody = z.infer<typeof ttsBodySchema>;

/** Whether `model` names this host's model (its id, or an OpenAI alias); absent means "the loaded one". */
export function modelMatches(model: string | undefined, loadedModelId: string | null): boolean {
  if (model === undefined) return true;
  return (OPENAI_MODEL_ALIASES as readonly string[]).includes(model) || (loadedModelId !== null && model === loadedModelId);
}

export function speechToRequest(body: SpeechBody, voice: string): SynthesisRequest {
  return {
    requestId: `http-${randomUUID()}`,
    input: body.input,
    inputFormat: body.input_format,
    ...(body.input_format === 'ssml' ? ssmlOptionsOf(body) : {}),
    voice,
    language: body.language ?? 'auto',
    seed: body.seed ?? DEFAULT_SEED,
    instruct: body.instructions,
    params: body.params,
    priority: 'interactive',
    stream: body.stream === true || body.stream_format === 'sse',
    ...loudnessOf(body),
  };
}

export function ttsToRequest(body: TtsBody, voice: string): SynthesisRequest {
  const ssmlText = typeof body.ssml === 'string' ? body.ssml : null;
  const input = ssmlText ?? body.text ?? '';
  if (input.trim() === '') {
    throw new StudioError('invalid-argument', 'text is empty: send {"text": "..."} or {"ssml": "<speak>...</speak>"}', { field: 'text' });
  }
  if (body.instruct !== undefined && body.emotion !== undefined) {
    throw new StudioError('invalid-argument', "send either 'instruct' or its older name 'emotion', not both", { field: 'emotion' });
  }
  return {
    requestId: `http-${randomUUID()}`,
    input,
    inputFormat: ssmlText !== null || body.ssml === true ? 'ssml' : 'text',
    voice,
    language: body.language ?? 'auto',
    seed: body.seed ?? DEFAULT_SEED,
    instruct: body.instruct ?? body.emotion,
    params: body.params,
    priority: 'bulk',
    stream: body.stream,
    ...ssmlOptionsOf(body),
    ...loudnessOf(body),
  };
}
