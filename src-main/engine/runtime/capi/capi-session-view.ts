/**
 * What an IoBinding and its buffers need of the session they bind (capi-binding.ts, capi-bound-buffers.ts):
 * its handle, provider and device, run options and a copy graph. capi-session.ts implements it, so the
 * binding files never import the session module (no import loop).
 */
import type { ProviderName } from '../providers';
import type { TensorDtype } from '../runtime';
import type { Ptr } from './ort-api';

/** Per-run settings: gpu_graph_id picks the captured graph of this shape bucket (CUDA graphs / WebGPU capture). */
export interface RunSettings {
  gpuGraphId?: number;
  /** Further run config entries (onnxruntime_run_options_config_keys.h). */
  config?: Record<string, string>;
}

export interface BoundSessionView {
  readonly handle: Ptr;
  readonly provider: ProviderName;
  readonly label: string;
  /** The session captures its graph (plain runs are refused). */
  readonly captures: boolean;
  /** The device the provider runs on (its device_id). */
  readonly deviceIndex: number;
  /** The live bindings of the session; a binding removes itself when released. */
  readonly bindings: Set<object>;
  alive(): void;
  runOptions(settings: RunSettings): Ptr;
  releaseRunOptions(ro: Ptr): void;
  /** The memory info ORT reports for an input or output (SessionGetMemoryInfoForInputs/Outputs), or null. */
  expectedMemoryInfo(name: string, role: 'input' | 'output'): Ptr;
  /** A copy graph on this session's provider (no capture): device buffers are written through it. */
  copySession(dtype: TensorDtype, rank: number): Promise<{ readonly handle: Ptr }>;
}
