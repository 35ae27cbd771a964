/**
 * One capture-ready graph of a built model folder, run once on the CPU at given dims (manifest dim names:
 * batch, capacity, k, num_frames) and audited for CUDA replay safety. Used by the audit test (tiny
 * builds) and lab/model-builder/cuda-replay-audit.ts (any build, e.g. a synthetic 0.6B).
 */
import path from 'node:path';
import type { IoSpec, ModelManifest } from '../../model-format/manifest';
import { auditCudaReplay, type ReplayFinding } from './cuda-replay-audit';
import { evalDim, filledFeed, shapeCensus, type CensusNode } from './shape-census';

/** Values the graphs need to run (TopK's K as the in_top_k width, probabilities, keep masks); everything else zeros. */
const FILL: Record<string, number> = { in_top_k: 1, temperature: 1, top_p: 1, uniforms: 0.5 };
const fillOf = (name: string, vars: Record<string, number>): number => (name === 'top_k_max' ? (vars.k ?? 4) : (FILL[name] ?? (name.startsWith('join_keep') ? 1 : 0)));

export type CaptureGraphKey = 'talkerDecode' | 'codePredictorLoopStatic' | 'codecStreamStatic' | 'codecStreamStaticMatMul';
export const CAPTURE_GRAPH_KEYS: readonly CaptureGraphKey[] = ['talkerDecode', 'codePredictorLoopStatic', 'codecStreamStatic', 'codecStreamStaticMatMul'];

export async function auditBuiltGraph(builtDir: string, manifest: ModelManifest, key: CaptureGraphKey, vars: Record<string, number>): Promise<{ nodes: CensusNode[]; findings: ReplayFinding[] }> {
  const spec = manifest.graphs[key];
  if (!spec) throw new Error(`the build in ${builtDir} has no ${key} graph`);
  const feeds = Object.fromEntries((spec.inputs as IoSpec[]).map((i) => [i.name, filledFeed(i.dtype, i.dims.map((d) => evalDim(d, vars)), fillOf(i.name, vars))]));
  const census = await shapeCensus(path.join(builtDir, spec.file), feeds);
  return { nodes: census.nodes, findings: auditCudaReplay(census.nodes, census.initializers) };
}
