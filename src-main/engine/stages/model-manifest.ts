/**
 * Reads and checks a built model folder's manifest.json: the folder exists, the manifest parses,
 * was written by this builder version, and every graph, table and tokenizer file it names is
 * there. The engine takes every model fact from the returned ModelManifest, never from constants.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StudioError } from '../../../src-shared/errors';
import { BUILDER_VERSION, manifestFiles } from '../../model-format/built-model';
import { MODEL_MANIFEST_FILE, MODEL_MANIFEST_VERSION, type ModelManifest } from '../../model-format/manifest';

export function loadModelManifest(builtDir: string): ModelManifest {
  if (!fs.existsSync(builtDir) || !fs.statSync(builtDir).isDirectory()) {
    throw new StudioError('model-missing', `model folder ${builtDir} does not exist; build it with 'studio model build <checkpoint>' or fix modelDir`, { field: 'modelDir', modelDir: builtDir });
  }
  const file = path.join(builtDir, MODEL_MANIFEST_FILE);
  if (!fs.existsSync(file)) {
    throw new StudioError('model-invalid', `model folder ${builtDir} has no ${MODEL_MANIFEST_FILE}; it is not a built model or the build was interrupted: rebuild it`, { field: 'modelDir', modelDir: builtDir });
  }
  let manifest: ModelManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as ModelManifest;
  } catch (err) {
    throw new StudioError('model-invalid', `${file} is not valid JSON (${(err as Error).message}); rebuild the model`, { field: 'modelDir', modelDir: builtDir });
  }
  if (manifest.manifestVersion !== MODEL_MANIFEST_VERSION || manifest.builderVersion !== BUILDER_VERSION) {
    throw new StudioError(
      'model-invalid',
      `model in ${builtDir} was built by builder version ${String(manifest.builderVersion)} (manifest v${String(manifest.manifestVersion)}) but this engine needs builder ${BUILDER_VERSION} (manifest v${MODEL_MANIFEST_VERSION}); rebuild it with 'studio model build'`,
      { field: 'modelDir', builderVersion: String(manifest.builderVersion), expectedBuilderVersion: BUILDER_VERSION },
    );
  }
  const missing = manifestFiles(manifest).filter((f) => !fs.existsSync(path.join(builtDir, f)));
  if (missing.length > 0) {
    throw new StudioError('model-invalid', `model in ${builtDir} is incomplete: missing ${missing.join(', ')}; rebuild it with 'studio model build'`, {
      field: 'modelDir',
      missing,
    });
  }
  return manifest;
}
