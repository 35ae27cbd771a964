/**
 * Runtime schemas (zod) for every request payload of the studio contract. Main validates each
 * call against these before a service sees it; a channel without a schema cannot be called.
 */
import { z } from 'zod';
import { CHANNELS, type Channel } from '../../src-shared/ipc-contract';
import { AUDIO_FORMATS } from '../../src-shared/audio-format';
import { EXPORT_CHUNK_MAX_SAMPLES } from '../../src-shared/contract/export';

const empty = z.strictObject({});

export const samplingParamsSchema = z
  .strictObject({
    doSample: z.boolean(),
    temperature: z.number().positive().max(10),
    topK: z.number().int().min(0).max(4096),
    topP: z.number().gt(0).max(1),
    repetitionPenalty: z.number().min(1).max(10),
    subtalkerDoSample: z.boolean(),
    subtalkerTemperature: z.number().positive().max(10),
    subtalkerTopK: z.number().int().min(0).max(4096),
    subtalkerTopP: z.number().gt(0).max(1),
    maxNewTokens: z.number().int().min(1).max(8192),
  })
  .partial();

/** How SSML input is read: dialect (default 'auto') and lenient (default false: strict). */
export const ssmlRequestOptionsSchema = z.strictObject({
  dialect: z.enum(['auto', 'ssml11', 'azure', 'google', 'polly']).optional(),
  lenient: z.boolean().optional(),
});

export const synthesisRequestSchema = z.strictObject({
  requestId: z.string().min(1).max(128),
  input: z.string().max(1_048_576),
  inputFormat: z.enum(['text', 'ssml']),
  voice: z.string().min(1).max(64),
  language: z.string().min(1).max(64),
  seed: z.number().int().min(0).max(2 ** 32 - 1),
  instruct: z.string().max(4096).optional(),
  params: samplingParamsSchema.optional(),
  priority: z.enum(['interactive', 'bulk']).optional(),
  deadlineMs: z.number().positive().optional(),
  stream: z.boolean().optional(),
  ssmlOptions: ssmlRequestOptionsSchema.optional(),
  turnIndex: z.number().int().min(0).max(100_000).optional(),
});

const fullSamplingParamsSchema = samplingParamsSchema.required();
const idSchema = z.string().min(1).max(128);
const turnSpanSchema = z.strictObject({ turnIndex: z.number().int().min(0), startSample: z.number().int().min(0), endSample: z.number().int().min(0) });

export const newClipSchema = z.strictObject({
  title: z.string().max(200),
  input: z.string().max(1_048_576),
  inputFormat: z.enum(['text', 'ssml']),
  voice: z.string().min(1).max(64),
  language: z.string().min(1).max(64),
  seed: z.number().int().min(0).max(2 ** 32 - 1),
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
    seed: z.number().int().min(0).max(2 ** 32 - 1),
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
            trimStartMs: z.number().min(0).max(3_600_000),
            trimEndMs: z.number().min(0).max(3_600_000),
            gapBeforeMs: z.number().min(0).max(600_000).nullable(),
            gainDb: z.number().min(-60).max(24),
          })
          .optional(),
      }),
    )
    .max(10_000),
});

const benchRunInputSchema = z.strictObject({
  variants: z
    .array(z.strictObject({ name: z.string().min(1).max(64), target: z.enum(['inproc', 'http']), url: z.string().url().optional() }))
    .min(1)
    .max(2),
  workloads: z.array(z.enum(['plain', 'processed'])).min(1).max(2),
  clientCounts: z.array(z.number().int().min(1).max(512)).min(1).max(16),
  windowMs: z.number().int().min(1_000).max(3_600_000),
  numPasses: z.number().int().min(1).max(10),
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
  }),
  [CHANNELS.saveClip]: z.strictObject({ clip: newClipSchema, pcm: z.instanceof(Float32Array).optional(), fromRequestId: idSchema.optional() }),
  [CHANNELS.getClip]: z.strictObject({ id: idSchema }),
  [CHANNELS.readClipAudio]: z.strictObject({ id: idSchema }),
  [CHANNELS.deleteClip]: z.strictObject({ id: idSchema }),
  [CHANNELS.updateClip]: z.strictObject({ id: idSchema, title: z.string().trim().min(1).max(200).optional(), favourite: z.boolean().optional() }),
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
    pcm: z.instanceof(Float32Array).refine((pcm) => pcm.length <= EXPORT_CHUNK_MAX_SAMPLES, `at most ${EXPORT_CHUNK_MAX_SAMPLES} samples per chunk; split the audio`),
  }),
  [CHANNELS.encodeExportAudio]: z.strictObject({
    exportId: idSchema,
    sampleRateHz: z.number().int().min(8000).max(192_000),
    format: z.enum(AUDIO_FORMATS),
    bitrateKbps: z.number().positive().max(510).optional(),
  }),
  [CHANNELS.showOpenProject]: empty,
  [CHANNELS.showSaveProject]: z.strictObject({ suggestedName: z.string().min(1).max(255) }),
  [CHANNELS.showImportAudio]: empty,
  [CHANNELS.showOpenDocument]: empty,
  [CHANNELS.startRender]: z.strictObject({
    source: z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('text'), text: z.string().min(1).max(16_777_216), inputFormat: z.enum(['text', 'ssml']), title: z.string().max(200) }),
      z.strictObject({ kind: z.literal('file'), path: z.string().min(1).max(4096) }),
      z.strictObject({ kind: z.literal('project'), path: z.string().min(1).max(4096) }),
    ]),
    voice: z.string().min(1).max(64),
    language: z.string().min(1).max(64),
    seed: z.number().int().min(0).max(2 ** 32 - 1),
    params: samplingParamsSchema.optional(),
    outputDir: z.string().min(1).max(4096).optional(),
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
