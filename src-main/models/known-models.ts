/**
 * The list of known hub models, read at run time from resources/models/known-models.json and
 * checked against a schema. Lookup by alias or repo id. Owns no downloads.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { StudioError } from '../../src-shared/errors';
import { appRootDir } from '../platform/paths';

const KnownModelSchema = z.object({
  alias: z.string().min(1),
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
  displayName: z.string().min(1),
  approxSizeBytes: z.number().int().positive(),
  parameters: z.string(),
  capabilities: z.array(z.enum(['preset-speakers', 'instruct', 'voice-design', 'voice-clone'])),
  summary: z.string(),
  license: z.string(),
});

const KnownModelsFileSchema = z.object({
  schemaVersion: z.literal(1),
  note: z.string().optional(),
  models: z.array(KnownModelSchema),
});

export type KnownModel = z.infer<typeof KnownModelSchema>;

export function defaultKnownModelsPath(): string {
  return path.join(appRootDir(), 'resources', 'models', 'known-models.json');
}

export async function loadKnownModels(filePath: string = defaultKnownModelsPath()): Promise<KnownModel[]> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (err) {
    throw new StudioError('not-found', `known-models list ${filePath} cannot be read (${(err as Error).message}); reinstall the app or pass knownModelsPath`, { path: filePath });
  }
  const parsed = KnownModelsFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StudioError('model-invalid', `known-models list ${filePath} is malformed at ${issue.path.join('.')}: ${issue.message}`, { path: filePath });
  }
  return parsed.data.models;
}

/** Finds a known model by alias ("0.6b-customvoice") or repo id, case-insensitively. */
export function findKnownModel(models: readonly KnownModel[], aliasOrRepo: string): KnownModel | null {
  const key = aliasOrRepo.toLowerCase();
  return models.find((m) => m.alias.toLowerCase() === key || m.repo.toLowerCase() === key) ?? null;
}
