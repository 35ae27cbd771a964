/**
 * The embedded default model: a synthetic tiny checkpoint (seeded random weights — it produces
 * noise, not speech) generated and built once under the cache folder on first run, then reused.
 * Also resolves a user-given folder: a built model (manifest.json) or a checkpoint to build.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { buildModel } from '../model-builder/build';
import { MODEL_MANIFEST_FILE, type BuildDtype } from '../model-format/manifest';
import { publishDir, tempSiblingOf } from '../model-builder/publish-dir';
import { writeSyntheticCheckpoint } from '../model-builder/synthetic-checkpoint';
import { SYNTHETIC_MARKER_KEY } from '../model-builder/synthetic-config';
import { EMBEDDED_TINY } from '../engine-protocol/protocol';

export const EMBEDDED_TINY_SEED = 1;

export interface ResolvedModel {
  builtDir: string;
  synthetic: boolean;
  displayName: string;
}

export async function resolveModel(model: string, cacheDir: string, dtype: BuildDtype, log: (m: string) => void): Promise<ResolvedModel> {
  if (model === EMBEDDED_TINY) {
    const root = path.join(cacheDir, 'embedded-tiny');
    const checkpointDir = path.join(root, `checkpoint-seed${EMBEDDED_TINY_SEED}`);
    const isComplete = (dir: string) => fs.existsSync(path.join(dir, 'speech_tokenizer', 'model.safetensors'));
    if (!isComplete(checkpointDir)) {
      log('generating the embedded synthetic tiny model (first run; random weights, it produces noise)…');
      const tmp = tempSiblingOf(checkpointDir);
      try {
        await writeSyntheticCheckpoint({ size: 'tiny', seed: EMBEDDED_TINY_SEED, outDir: tmp });
        publishDir(tmp, checkpointDir, isComplete);
      } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    }
    const { builtDir } = await buildModel({ checkpointDir, outDir: path.join(root, 'built'), dtype });
    return { builtDir, synthetic: true, displayName: 'Embedded test model (synthetic tiny, random weights)' };
  }
  const dir = path.resolve(model);
  if (!fs.existsSync(dir)) {
    throw new StudioError('model-missing', `no model folder at ${dir}; pass a built model or checkpoint folder, or pull one with 'studio model pull'`, { path: dir });
  }
  if (fs.existsSync(path.join(dir, MODEL_MANIFEST_FILE))) return { builtDir: dir, synthetic: builtIsSynthetic(dir), displayName: path.basename(dir) };
  if (fs.existsSync(path.join(dir, 'config.json'))) {
    log(`building ONNX graphs for ${dir} (${dtype})…`);
    const { builtDir } = await buildModel({ checkpointDir: dir, outDir: path.join(cacheDir, 'built'), dtype });
    return { builtDir, synthetic: isSyntheticCheckpoint(dir), displayName: path.basename(dir) };
  }
  throw new StudioError('model-invalid', `${dir} is neither a built model (${MODEL_MANIFEST_FILE}) nor a checkpoint (config.json); point --model at one of those`, { path: dir });
}

/** Synthetic checkpoints mark themselves in config.json, so the UI can say they produce noise. */
export function isSyntheticCheckpoint(checkpointDir: string): boolean {
  try {
    const config = JSON.parse(fs.readFileSync(path.join(checkpointDir, 'config.json'), 'utf8')) as Record<string, unknown>;
    return config[SYNTHETIC_MARKER_KEY] === true;
  } catch {
    return false;
  }
}

function builtIsSynthetic(builtDir: string): boolean {
  const manifest = JSON.parse(fs.readFileSync(path.join(builtDir, MODEL_MANIFEST_FILE), 'utf8')) as { checkpointDir: string };
  return isSyntheticCheckpoint(manifest.checkpointDir);
}
