/**
 * Picks which build of a model the engine opens for a provider: the build cache keeps one folder per
 * (checkpoint, builder version, dtype) side by side (model-format/built-model.ts builtDirName), so for a GPU
 * provider an fp32 modelDir is swapped for its fp16 sibling when that was built, and for CPU an fp16
 * one for its fp32 sibling. Without the sibling the given build is used, and the reason says so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { builtDirName } from '../model-format/built-model';
import { MODEL_MANIFEST_FILE, type BuildDtype, type ModelManifest } from '../model-format/manifest';

export interface ModelDirChoice {
  modelDir: string;
  dtype: BuildDtype;
  reason: string;
}

export function modelDirForProvider(modelDir: string, manifest: ModelManifest, preferred: BuildDtype): ModelDirChoice {
  if (manifest.dtype === preferred) return { modelDir, dtype: preferred, reason: `${preferred} build as given` };
  const sibling = path.join(path.dirname(path.resolve(modelDir)), builtDirName(manifest.checkpointHash, preferred));
  if (fs.existsSync(path.join(sibling, MODEL_MANIFEST_FILE))) {
    return { modelDir: sibling, dtype: preferred, reason: `${preferred} sibling build ${path.basename(sibling)} preferred over the given ${manifest.dtype} build` };
  }
  return { modelDir, dtype: manifest.dtype, reason: `${manifest.dtype} build as given (no ${preferred} build next to it; 'studio model build --dtype ${preferred}' makes one)` };
}
