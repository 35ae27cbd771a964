/**
 * The talker's KV cache behind one interface, with a strategy per provider: host-resident (CPU,
 * CUDA, DirectML: every run stages each row's positions from the block pool and stores only the new
 * ones back) and device-resident (WebGPU: a run's present outputs stay on the GPU and are fed
 * straight back while its group of rows is unchanged; see device-kv-store.ts).
 */
import type { OrtTensor } from '../runtime/ort';
import type { ActivationData } from '../stages/activations';
import type { KvPoolStats } from './host-kv-pool';

/** The rows of one talker run: pads (to a fixed row count) repeat the last real row's sequence. */
export interface KvGroup {
  sequenceIds: readonly number[];
  numReal: number;
  /** Slots of every row's buffer (kvCapacity of the rows' position count after the run). */
  capacity: number;
  numNew: number;
}

export interface KvStoreStats extends KvPoolStats {
  strategy: 'host' | 'device';
  /** Runs whose past came straight from the previous run's outputs (device strategy). */
  numRunsReused: number;
  /** Runs whose past was gathered on the device from other resident groups (device strategy). */
  numRunsRegrouped: number;
  /** Runs whose past was staged from the host pool. */
  numRunsStaged: number;
  /** Device-resident groups copied back to the host pool because their rows regrouped. */
  numGroupsDownloaded: number;
  /** Groups whose present outputs are held on the device now (device strategy). */
  numResidentGroups: number;
}

export interface TalkerKvStore {
  /** Positions stored for a sequence after its last run (0 before its prefill). */
  numPositions(sequenceId: number): number;
  has(sequenceId: number): boolean;
  /** past_key_i / past_value_i feeds for one run of `group`. */
  pastFeeds(group: KvGroup): Promise<Record<string, OrtTensor>>;
  /** Takes the run's outputs: keeps the new positions (in the pool, or on the device). */
  accept(group: KvGroup, feeds: Record<string, OrtTensor>, outputs: Record<string, OrtTensor>): Promise<void>;
  release(sequenceId: number): void;
  /** Copies of a sequence's positions [0, numPositions): per layer [keys, values], each [numKvHeads, numPositions, headDim] (the prompt-prefix cache). */
  readPositions(sequenceId: number, numPositions: number): Promise<ActivationData[]>;
  /** Gives a sequence that holds no KV the positions [0, numPositions) of `data`, laid out as readPositions returns them. */
  writePositions(sequenceId: number, data: readonly ActivationData[], numPositions: number): void;
  stats(): KvStoreStats;
  dispose(): Promise<void>;
}

export function groupKey(group: KvGroup): string {
  return `${group.capacity}|${group.sequenceIds.join(',')}`;
}

export function pastName(layer: number, which: 0 | 1): string {
  return `${which === 0 ? 'past_key' : 'past_value'}_${layer}`;
}

export function presentName(layer: number, which: 0 | 1): string {
  return `${which === 0 ? 'present_key' : 'present_value'}_${layer}`;
}

/** Present output names in the pool's [layer][keys, values] order. */
export function presentNames(numLayers: number): string[] {
  return Array.from({ length: numLayers }, (_, i) => [presentName(i, 0), presentName(i, 1)]).flat();
}
