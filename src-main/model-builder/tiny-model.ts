/**
 * ensureTinyModel: the shared test fixture. Synthesises the tiny checkpoint (seed 1) and builds it
 * (fp32) once under <repo>/.cache/tiny-model/<key>/, then every test file reuses it. ensureTinyVariant
 * does the same for the other tiny layouts and model types (tiny-1.7b, VoiceDesign). A directory lock
 * serialises concurrent test workers; the checkpoint is written to a temp dir and renamed into place.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILDER_VERSION } from '../model-format/built-model';
import { buildModel } from './build';
import type { BuildDtype } from '../model-format/manifest';
import { writeSyntheticCheckpoint } from './synthetic-checkpoint';
import type { SyntheticModelType } from './synthetic-config';

/** A tiny synthetic checkpoint kind: the layout (tiny = 0.6B's, tiny-1.7b = 1.7B's) and the model type. */
export interface TinyVariant {
  size: 'tiny' | 'tiny-1.7b';
  modelType: SyntheticModelType;
}

export const TINY_MODEL_SEED = 1;
const LOCK_STALE_MS = 10 * 60_000;
const LOCK_POLL_MS = 200;

function repoRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
}

async function withDirLock<T>(lockDir: string, fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch {
      const ageMs = Date.now() - (fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (ageMs > LOCK_STALE_MS) fs.rmSync(lockDir, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

export function ensureTinyModel(dtype: BuildDtype = 'fp32'): Promise<{ checkpointDir: string; builtDir: string }> {
  return ensureTinyVariant({ size: 'tiny', modelType: 'custom_voice' }, dtype);
}

export async function ensureTinyVariant(variant: TinyVariant, dtype: BuildDtype = 'fp32'): Promise<{ checkpointDir: string; builtDir: string }> {
  const isDefault = variant.size === 'tiny' && variant.modelType === 'custom_voice';
  const key = `seed${TINY_MODEL_SEED}-v${BUILDER_VERSION}${isDefault ? '' : `-${variant.size}-${variant.modelType}`}`;
  const root = path.join(repoRoot(), '.cache', 'tiny-model', key);
  fs.mkdirSync(root, { recursive: true });
  return withDirLock(path.join(root, '.lock'), async () => {
    const checkpointDir = path.join(root, 'checkpoint');
    if (!fs.existsSync(path.join(checkpointDir, 'speech_tokenizer', 'model.safetensors'))) {
      const tmp = path.join(root, `checkpoint.tmp-${process.pid}`);
      fs.rmSync(tmp, { recursive: true, force: true });
      await writeSyntheticCheckpoint({ ...variant, seed: TINY_MODEL_SEED, outDir: tmp });
      fs.rmSync(checkpointDir, { recursive: true, force: true });
      fs.renameSync(tmp, checkpointDir);
    }
    const { builtDir } = await buildModel({ checkpointDir, outDir: path.join(root, 'built'), dtype });
    return { checkpointDir, builtDir };
  });
}
