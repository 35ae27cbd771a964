/**
 * What a built model folder is, as both the builder (writes it) and the engine (opens it) read it:
 * the builder version its manifest must carry, its name in the build cache
 * (<fingerprint16>-v<builder>-<dtype>[-<ops>], one folder per build side by side), and the files
 * its manifest names. No I/O.
 */
import type { BuildDtype, ModelManifest } from './manifest';
import type { GraphOps } from './onnx/graph-builder';

/** Bump when graphs, tables or the manifest change shape or meaning: old cache dirs are then ignored. */
export const BUILDER_VERSION = '18';

/** Fused RMSNorm and RoPE kernels: about half the dispatches per frame on WebGPU (docs/benchmarks.md, builder v4). */
export const DEFAULT_GRAPH_OPS: GraphOps = 'fused';

export function builtDirName(checkpointHash: string, dtype: BuildDtype, ops: GraphOps = DEFAULT_GRAPH_OPS): string {
  return `${checkpointHash.slice(0, 16)}-v${BUILDER_VERSION}-${dtype}${ops === DEFAULT_GRAPH_OPS ? '' : `-${ops}`}`;
}

/** Every file a manifest names, relative to the built dir. */
export function manifestFiles(manifest: ModelManifest): string[] {
  const graphs = new Set(Object.values(manifest.graphs).flatMap((g) => (g.externalDataFile ? [g.file, g.externalDataFile] : [g.file])));
  return [...graphs, ...Object.values(manifest.embeddings).map((t) => t.file), ...Object.values(manifest.files), ...(manifest.speakerEncoder ? [manifest.speakerEncoder.file] : []), ...(manifest.speechEncoder ? [manifest.speechEncoder.file] : [])];
}
