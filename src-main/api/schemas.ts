/**
 * Runtime schemas (zod) for every request payload of the studio contract. Main validates each
 * call against these before a service sees it; a channel without a schema cannot be called.
 */
import { z } from 'zod';
import { CHANNELS, type Channel } from '../../src-shared/ipc-contract';
import { AUDIO_FORMATS, OUTPUT_LOUDNESS_LIMITS } from '../../src-shared/audio-format';
import { EXPORT_CHUNK_MAX_SAMPLES } from '../../src-shared/contract/export';
import { VOICE_ID_PATTERN } from '../../src-shared/contract/voices';
import { BENCH_RUN_LIMITS } from '../../src-shared/contract/bench';
import { TURN_EDIT_LIMITS } from '../../src-shared/contract/projects';
import { MAX_REFERENCE_BYTES } from '../audio/reference-audio';
import { MAX_SEED, SAMPLING_PARAM_LIMITS, samplingParamRule, type NumericSamplingParam } from '../../src-shared/sampling-limits';

const empty = z.strictObject({});

/** A request's seed: 0 … MAX_SEED (src-shared/sampling-limits.ts). */
export const seedSchema = z.number().int().min(0).max(MAX_SEED);

/** A numeric sampling param in its range (src-shared/sampling-limits.ts); every message states the range and the fix. */
function samplingNumber(key: NumericSamplingParam): z.ZodNumber {
  const limit = SAMPLING_PARAM_LIMITS[key];
  const message = samplingParamRule(key);
  const n = z.number({ message });
  const whole = limit.integer ? n.int(message) : n;
  return (limit.minExclusive ? whole.gt(limit.min, message) : whole.min(limit.min, message)).max(limit.max, message);
}

export const samplingParamsSchema = z
  .strictObject({
    doSample: z.boolean(),
    temperature: samplingNumber('temperature'),
    topK: samplingNumber('topK'),
    topP: samplingNumber('topP'),
    repetitionPenalty: samplingNumber('repetitionPenalty'),
    subtalkerDoSample: z.boolean(),
    subtalkerTemperature: samplingNumber('subtalkerTemperature'),
    subtalkerTopK: samplingNumber('subtalkerTopK'),
    subtalkerTopP: samplingNumber('subtalkerTopP'),
    maxNewTokens: samplingNumber('maxNewTokens'),
  })
  .partial();

/** How SSML input is read: dialect (default 'auto') and lenient (default false: strict). */
export const ssmlRequestOptionsSchema = z.strictObject({
  dialect: z.enum(['auto', 'ssml11', 'azure', 'google', 'polly']).optional(),
  lenient: z.boolean().optional(),
});

/** A loudness target (LUFS) and true-peak ceiling (dBTP), in the ranges the normaliser accepts. */
export const outputLoudnessSchema = z.strictObject({
  targetLufs: z
    .number({ message: 'loudness.targetLufs must be a number of LUFS' })
    .min(OUTPUT_LOUDNESS_LIMITS.targetLufs.min, `loudness.targetLufs must be at least ${OUTPUT_LOUDNESS_LIMITS.targetLufs.min} LUFS`)
    .max(OUTPUT_LOUDNESS_LIMITS.targetLufs.max, `loudness.targetLufs must be at most ${OUTPUT_LOUDNESS_LIMITS.targetLufs.max} LUFS`),
  truePeakCeilingDbtp: z
    .number({ message: 'loudness.truePeakCeilingDbtp must be a number of dBTP' })
    .min(OUTPUT_LOUDNESS_LIMITS.truePeakCeilingDbtp.min, `loudness.truePeakCeilingDbtp must be at least ${OUTPUT_LOUDNESS_LIMITS.truePeakCeilingDbtp.min} dBTP`)
    .max(OUTPUT_LOUDNESS_LIMITS.truePeakCeilingDbtp.max, `loudness.truePeakCeilingDbtp must be at most ${OUTPUT_LOUDNESS_LIMITS.truePeakCeilingDbtp.max} dBTP`),
});

/** A request's own deadline: under 1 ms no audio can come (it counts from arrival), over a day it is a unit mistake. */
export const MIN_DEADLINE_MS = 1;
export const MAX_DEADLINE_MS = 24 * 3_600_000;

/** What is spoken and by whom: the fields a synthesis request and the clip saved from it share. */
const spokenFields = {
  input: z.string().max(1_048_576),
  inputFormat: z.enum(['text', 'ssml']),
  voice: z.string().min(1).max(64),
  language: z.string().min(1).max(64),
  seed: seedSchema,
};

export const synthesisRequestSchema = z.strictObject({
  requestId: z.string().min(1).max(128),
  ...spokenFields,
  instruct: z.string().max(4096).optional(),
  params: samplingParamsSchema.optional(),
  priority: z.enum(['interactive', 'bulk']).optional(),
  deadlineMs: z.number().min(MIN_DEADLINE_MS, `deadlineMs must be at least ${MIN_DEADLINE_MS} ms (it counts from arrival, queue time included); leave it out for the server's default`).max(MAX_DEADLINE_MS, `deadlineMs must be at most ${MAX_DEADLINE_MS} ms (24 h); leave it out for the server's default`).optional(),
  stream: z.boolean().optional(),
  ssmlOptions: ssmlRequestOptionsSchema.optional(),
  turnIndex: z.number().int().min(0).max(100_000).optional(),
  loudness: outputLoudnessSchema.optional(),
});

const fullSamplingParamsSchema = samplingParamsSchema.required();

/** PCM a client sends to be stored: every sample finite (a NaN would be written into the library's WAV). */
const finitePcmSchema = z.instanceof(Float32Array).refine((pcm) => pcm.every(Number.isFinite), 'has NaN or infinite samples; send finite PCM (replace them with 0, or fix the stage that produced them)');
const idSchema = z.string().min(1).max(128);
const turnSpanSchema = z.strictObject({ turnIndex: z.number().int().min(0), startSample: z.number().int().min(0), endSample: z.number().int().min(0), voice: z.string().min(1).max(128).optional() });

export const newClipSchema = z.strictObject({
  title: z.string().max(200),
  ...spokenFields,
  instruct: z.string().max(4096).nullable(),
  params: fullSamplingParamsSchema,
  modelHash: z.string().max(128),
  timings: z.strictObject({
    numPromptTokens: z.number(),
    numFrames: z.number(),
    queueWaitMs: z.number(),
    latencyFirstAudioMs: z.number(),
    latencyTotalMs: z.number(),
    audioDurationMs: z.number(),
    rtf: z.number(),
  }),
  sampleRateHz: z.number().int().positive().max(384_000),
  turnSpans: z.array(turnSpanSchema).max(10_000),
  voices: z.array(z.string().min(1).max(64)).max(256).optional(),
  takeOf: z.strictObject({ clipId: idSchema, turnIndex: z.number().int().min(0).max(100_000) }).optional(),
});

const takeRefSchema = z.strictObject({
  takeId: idSchema,
  clipId: idSchema,
  seed: z.number().int().min(0),
  startSample: z.number().int().min(0),
  endSample: z.number().int().min(0),
  createdAtMs: z.number(),
  voice: z.string().min(1).max(64).optional(),
  label: z.string().max(80).optional(),
});

export const projectDocumentSchema = z.strictObject({
  schemaVersion: z.literal(1),
  id: idSchema,
  name: z.string().min(1).max(200),
  editor: z.strictObject({ text: z.string().max(1_048_576), inputFormat: z.enum(['text', 'ssml']), ssmlOptions: ssmlRequestOptionsSchema.optional() }),
  voice: z.strictObject({
    modelId: z.string().max(200).nullable(),
    voice: z.string().max(64),
    language: z.string().max(64),
    seed: seedSchema,
    params: fullSamplingParamsSchema.nullable(),
    instruct: z.string().max(4096),
    voiceDescription: z.string().max(4096),
  }),
  baseClipId: idSchema.nullable(),
  turns: z
    .array(
      z.strictObject({
        turnIndex: z.number().int().min(0),
        takes: z.array(takeRefSchema).max(1000),
        chosenTakeId: idSchema,
        previousTakeId: idSchema.nullable(),
        edit: z
          .strictObject({
            trimStartMs: z.number().min(TURN_EDIT_LIMITS.trimMs.min).max(TURN_EDIT_LIMITS.trimMs.max),
            trimEndMs: z.number().min(TURN_EDIT_LIMITS.trimMs.min).max(TURN_EDIT_LIMITS.trimMs.max),
            gapBeforeMs: z.number().min(TURN_EDIT_LIMITS.gapBeforeMs.min).max(TURN_EDIT_LIMITS.gapBeforeMs.max).nullable(),
            gainDb: z.number().min(TURN_EDIT_LIMITS.gainDb.min).max(TURN_EDIT_LIMITS.gainDb.max),
          })
          .optional(),
      }),
    )
    .max(10_000),
});

/** Names are checked in full by the voice library (pattern, reserved names, uniqueness); here only their size. */
const voiceNameSchema = z.string().min(1).max(200);
const voiceIdSchema = z.string().regex(VOICE_ID_PATTERN, 'a saved voice id (v- and 12 hex digits)');

/** A reference clip for a clone or another sample of one: its bytes or an imported file, with what it says. */
const referenceClipFields = {
  audio: z
    .instanceof(Uint8Array)
    .refine((bytes) => bytes.byteLength <= MAX_REFERENCE_BYTES, `at most ${MAX_REFERENCE_BYTES / 1048576} MB; cut the clip to 5–15 s`)
    .optional(),
  path: z.string().min(1).max(4096).optional(),
  originalName: z.string().max(255).optional(),
  refText: z.string().max(4096).optional(),
};
const ONE_CLIP = 'send the clip as audio (its bytes) or as path (an imported file), one of the two';
const cloneVoiceSchema = z.strictObject({ name: voiceNameSchema, ...referenceClipFields }).refine((r) => (r.audio === undefined) !== (r.path === undefined), ONE_CLIP);
const addVoiceSampleSchema = z.strictObject({ id: voiceIdSchema, ...referenceClipFields }).refine((r) => (r.audio === undefined) !== (r.path === undefined), ONE_CLIP);

const benchRunInputSchema = z.strictObject({
  variants: z
    .array(z.strictObject({ name: z.string().min(1).max(64), target: z.enum(['inproc', 'http']), url: z.string().url().optional() }))
    .min(1)
    .max(2),
  workloads: z.array(z.enum(['plain', 'processed'])).min(1).max(2),
  clientCounts: z.array(z.number().int().min(BENCH_RUN_LIMITS.numClients.min).max(BENCH_RUN_LIMITS.numClients.max)).min(1).max(BENCH_RUN_LIMITS.maxClientCounts),
  windowMs: z.number().int().min(BENCH_RUN_LIMITS.windowMs.min).max(BENCH_RUN_LIMITS.windowMs.max),
  numPasses: z.number().int().min(BENCH_RUN_LIMITS.numPasses.min).max(BENCH_RUN_LIMITS.numPasses.max),
  voice: z.string().min(1).max(64).optional(),
});

export const REQUEST_SCHEMAS: { readonly [C in Channel]: z.ZodType } = {
  [CHANNELS.info]: empty,
  [CHANNELS.ping]: z.strictObject({ message: z.string().max(1024) }),
  [CHANNELS.synthesize]: synthesisRequestSchema,
  [CHANNELS.cancel]: z.strictObject({ requestId: z.string().min(1).max(128) }),
  [CHANNELS.listVoices]: empty,
  [CHANNELS.engineStatus]: empty,
  [CHANNELS.modelInfo]: empty,
  [CHANNELS.loadModel]: z.strictObject({ modelId: z.string().min(1).max(300) }),
  [CHANNELS.listClips]: z.strictObject({
    search: z.string().max(200).optional(),
    voice: z.string().max(64).optional(),
    language: z.string().max(64).optional(),
    favouritesOnly: z.boolean().optional(),
    limit: z.number().int().min(1).max(1000).optional(),
    takesOf: idSchema.optional(),
  }),
  [CHANNELS.saveClip]: z.strictObject({ clip: newClipSchema, pcm: finitePcmSchema.optional(), fromRequestId: idSchema.optional() }),
  [CHANNELS.getClip]: z.strictObject({ id: idSchema }),
  [CHANNELS.readClipAudio]: z.strictObject({ id: idSchema }),
  [CHANNELS.deleteClip]: z.strictObject({ id: idSchema }),
  [CHANNELS.updateClip]: z.strictObject({
    id: idSchema,
    title: z.string().trim().min(1).max(200).optional(),
    favourite: z.boolean().optional(),
    chooseTake: z.strictObject({ turnIndex: z.number().int().min(0).max(100_000), takeId: idSchema.nullable() }).optional(),
  }),
  [CHANNELS.saveProject]: z.strictObject({ project: projectDocumentSchema, path: z.string().min(1).max(4096).optional() }),
  [CHANNELS.openProject]: z.strictObject({ path: z.string().min(1).max(4096) }),
  [CHANNELS.listRecent]: empty,
  [CHANNELS.listProjects]: empty,
  [CHANNELS.deleteProject]: z.strictObject({ path: z.string().min(1).max(4096) }),
  [CHANNELS.autosave]: z.strictObject({ project: projectDocumentSchema, path: z.string().min(1).max(4096).nullable() }),
  [CHANNELS.readRecovery]: empty,
  [CHANNELS.discardRecovery]: empty,
  [CHANNELS.validateSsml]: z.strictObject({ text: z.string().max(1_048_576), ssmlOptions: ssmlRequestOptionsSchema.optional(), language: z.string().min(1).max(64).optional() }),
  [CHANNELS.startRun]: benchRunInputSchema,
  [CHANNELS.stopRun]: z.strictObject({ runId: idSchema }),
  [CHANNELS.listRuns]: empty,
  [CHANNELS.getRun]: z.strictObject({ runId: idSchema }),
  [CHANNELS.exportRun]: z.strictObject({ runId: idSchema, format: z.enum(['json', 'markdown', 'html']) }),
  [CHANNELS.listModels]: empty,
  [CHANNELS.pullModel]: z.strictObject({ modelId: z.string().min(1).max(4096), build: z.boolean().optional() }),
  [CHANNELS.planPull]: z.strictObject({ modelId: z.string().min(1).max(4096) }),
  [CHANNELS.cancelPull]: z.strictObject({ modelId: z.string().min(1).max(4096) }),
  [CHANNELS.modelsState]: empty,
  [CHANNELS.removeModel]: z.strictObject({ modelId: z.string().min(1).max(200) }),
  [CHANNELS.verifyModel]: z.strictObject({ modelId: z.string().min(1).max(200) }),
  [CHANNELS.appendExportAudio]: z.strictObject({
    exportId: idSchema,
    pcm: finitePcmSchema.refine((pcm) => pcm.length <= EXPORT_CHUNK_MAX_SAMPLES, `at most ${EXPORT_CHUNK_MAX_SAMPLES} samples per chunk; split the audio`),
  }),
  [CHANNELS.encodeExportAudio]: z.strictObject({
    exportId: idSchema,
    sampleRateHz: z.number().int().min(8000).max(192_000),
    format: z.enum(AUDIO_FORMATS),
    bitrateKbps: z.number().positive().max(510).optional(),
    loudness: outputLoudnessSchema.optional(),
  }),
  [CHANNELS.showOpenProject]: empty,
  [CHANNELS.showSaveProject]: z.strictObject({ suggestedName: z.string().min(1).max(255) }),
  [CHANNELS.showImportAudio]: empty,
  [CHANNELS.listSavedVoices]: empty,
  [CHANNELS.cloneVoice]: cloneVoiceSchema,
  [CHANNELS.designVoice]: z.strictObject({ name: voiceNameSchema, description: z.string().min(1).max(4096) }),
  [CHANNELS.renameVoice]: z.strictObject({ id: voiceIdSchema, name: voiceNameSchema }),
  [CHANNELS.deleteVoice]: z.strictObject({ id: voiceIdSchema }),
  [CHANNELS.addVoiceSample]: addVoiceSampleSchema,
  [CHANNELS.useVoiceSample]: z.strictObject({ id: voiceIdSchema, sampleId: z.string().regex(/^s-(0|[0-9a-f]{8})$/, "a sample id (s- and 8 hex digits, or s-0)") }),
  [CHANNELS.showOpenDocument]: empty,
  [CHANNELS.startRender]: z.strictObject({
    source: z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('text'), text: z.string().min(1).max(16_777_216), inputFormat: z.enum(['text', 'ssml']), title: z.string().max(200) }),
      z.strictObject({ kind: z.literal('file'), path: z.string().min(1).max(4096) }),
      z.strictObject({ kind: z.literal('project'), path: z.string().min(1).max(4096) }),
    ]),
    voice: z.string().min(1).max(64),
    language: z.string().min(1).max(64),
    seed: seedSchema,
    params: samplingParamsSchema.optional(),
    outputDir: z.string().min(1).max(4096).optional(),
    loudness: outputLoudnessSchema.optional(),
  }),
  [CHANNELS.listRenders]: empty,
  [CHANNELS.cancelRender]: z.strictObject({ jobId: idSchema }),
  [CHANNELS.resumeRender]: z.strictObject({ jobId: idSchema }),
  [CHANNELS.getRenderQueue]: empty,
  [CHANNELS.setRenderQueue]: z.strictObject({ queueUrl: z.string().max(2048).nullable() }),
};

/** Turns zod issues into one readable sentence naming each field path. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(payload)'}: ${i.message}`)
    .join('; ');
}
