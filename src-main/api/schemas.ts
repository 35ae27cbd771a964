/**
 * Runtime schemas (zod) for every request payload of the studio contract. Main validates each
 * call against these before a service sees it; a channel without a schema cannot be called.
 */
import { z } from 'zod';
import { CHANNELS, type Channel } from '../../src-shared/ipc-contract';

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
});

export const REQUEST_SCHEMAS: { readonly [C in Channel]: z.ZodType } = {
  [CHANNELS.info]: empty,
  [CHANNELS.ping]: z.strictObject({ message: z.string().max(1024) }),
  [CHANNELS.synthesize]: synthesisRequestSchema,
  [CHANNELS.cancel]: z.strictObject({ requestId: z.string().min(1).max(128) }),
  [CHANNELS.listVoices]: empty,
  [CHANNELS.engineStatus]: empty,
  [CHANNELS.modelInfo]: empty,
};

/** Turns zod issues into one readable sentence naming each field path. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(payload)'}: ${i.message}`)
    .join('; ');
}
