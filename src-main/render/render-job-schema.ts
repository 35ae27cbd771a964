/**
 * A render job as a worker reads it: untrusted input, since anything that can write to the Redis
 * queue can write a job. parseRenderJob checks shape, sizes and patterns (zod) — a part id is 32 hex
 * digits, so it names a file inside the parts folder and nothing else; checkOutputDir resolves the
 * output folder (symlinks included) and refuses relative paths and system folders before anything
 * touches the disk, then makes sure this machine can write there. Files only, no queue.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { StudioError } from '../../src-shared/errors';
import { MAX_VOICE_NAME_CHARS, VOICE_ID_PATTERN } from '../../src-shared/contract/voices';
import { samplingParamsSchema, seedSchema } from '../api/schemas';
import type { RenderJobData } from './render-queue';

/** What partId() makes: sha256, 32 lowercase hex digits. */
export const PART_ID_PATTERN = /^[0-9a-f]{32}$/;

/** Folders of kernel and device files: no render output belongs there (a recursive mkdir under /proc never returns). */
const SYSTEM_ROOTS = ['/proc', '/sys', '/dev'];

const clonePromptSchema = z.object({
  mode: z.enum(['xvector', 'icl']),
  embedding: z.array(z.number()).max(16_384),
  // 12.5 frames a second of 16 codebooks: 12,500 frames is over 16 minutes of reference
  refCodes: z.array(z.array(z.number().int().min(0).max(65_535)).max(64)).max(12_500).optional(),
  refText: z.string().max(10_000).optional(),
});

const savedVoiceSchema = z.object({
  id: z.string().regex(VOICE_ID_PATTERN, 'must be a saved voice id (v- and 12 hex digits)'),
  name: z.string().min(1).max(MAX_VOICE_NAME_CHARS),
  kind: z.enum(['clone', 'design']),
  modelKind: z.string().max(64),
  modelSize: z.string().max(64),
  prompt: clonePromptSchema.optional(),
  description: z.string().max(10_000).optional(),
});

const renderJobSchema = z.object({
  part: z.object({
    id: z.string().regex(PART_ID_PATTERN, 'must be 32 lowercase hex digits (a part id)'),
    index: z.number().int().min(0).max(10_000_000),
    chapter: z.number().int().min(0).max(10_000_000),
    input: z.string().max(1_048_576),
    inputFormat: z.enum(['text', 'ssml']),
  }),
  settings: z.object({
    voice: z.string().min(1).max(128),
    language: z.string().min(1).max(64),
    seed: seedSchema,
    params: samplingParamsSchema.optional(),
    model: z.string().min(1).max(4_096),
  }),
  outputDir: z
    .string()
    .min(1)
    .max(4_096)
    .refine((p) => !p.includes('\0'), 'must not hold a NUL character')
    .refine((p) => path.isAbsolute(p), 'must be an absolute path (a folder every worker sees at the same path)'),
  savedVoices: z.array(savedVoiceSchema).max(64).optional(),
});

/** The job's data, checked; throws 'invalid-argument' naming each bad field (a retry cannot fix it). */
export function parseRenderJob(data: unknown): RenderJobData {
  const parsed = renderJobSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || 'job'}: ${i.message}`);
  throw new StudioError('invalid-argument', `this job is not a render part (${problems.join('; ')}); queue parts with \`studio render --queue\` or the studio's Render page, and remove this job from the queue`, {
    field: parsed.error.issues[0]?.path.join('.') ?? 'job',
  });
}

/** `absPath` with its longest existing prefix replaced by that prefix's real path (symlinks resolved). */
function realPathOf(absPath: string): string {
  for (let p = absPath; ; p = path.dirname(p)) {
    try {
      return path.join(fs.realpathSync(p), path.relative(p, absPath));
    } catch {
      if (path.dirname(p) === p) return absPath;
    }
  }
}

/**
 * The output folder's real path, with its parts folder made and writable. Throws 'invalid-argument'
 * (relative) or 'forbidden' (a system folder, symlinks resolved) before touching the disk — both
 * permanent — or 'unavailable' when this machine cannot write there (another worker may: a retry).
 */
export function checkOutputDir(outputDir: string): string {
  if (!path.isAbsolute(outputDir)) {
    throw new StudioError('invalid-argument', `the output folder '${outputDir}' is a relative path; give an absolute path that every worker sees (a shared folder)`, { field: 'outputDir' });
  }
  const real = realPathOf(path.resolve(outputDir));
  const root = SYSTEM_ROOTS.find((r) => real === r || real.startsWith(`${r}/`));
  if (root) {
    throw new StudioError('forbidden', `the output folder ${outputDir} is under ${root}, a folder of kernel or device files; give a folder on a disk`, { field: 'outputDir' });
  }
  const partsDir = path.join(real, 'parts');
  try {
    fs.mkdirSync(partsDir, { recursive: true });
    fs.accessSync(partsDir, fs.constants.W_OK);
  } catch (err) {
    throw new StudioError('unavailable', `the output folder ${outputDir} cannot be written on this machine (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); mount the shared folder at the same path on every worker, or give a folder this user may write`, { field: 'outputDir' });
  }
  return real;
}
