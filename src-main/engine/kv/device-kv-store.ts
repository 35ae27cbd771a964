/**
 * Device-resident KV strategy (WebGPU): the talker's present outputs are kept as gpu-buffer tensors
 * and fed straight back as the next run's past while the run has the same rows and capacity, so a
 * steady batch never copies its cache. When rows regroup (a sequence joins, leaves or outgrows its
 * capacity) and every row is resident, the new group's past is gathered from the resident groups on
 * the device (padded to the new capacity); otherwise the affected groups are downloaded once into
 * the host pool and the group is restaged from there.
 */
import { StudioError } from '../../../src-shared/errors';
import { disposeTensor, tensor, type OrtTensor } from '../runtime/ort';
import { emptyActivation, type ActivationData, type ActivationDtype } from '../stages/activations';
import type { HostKvPool } from './host-kv-pool';
import { stagedFeeds, storeRows } from './host-kv-store';
import { kvCapacity } from './kv-layout';
import { groupKey, pastName, presentName, presentNames, type KvGroup, type KvStoreStats, type TalkerKvStore } from './kv-store';

/** Copies tensors to host arrays, in order (a copy session on the GPU; see create-kv-store.ts). */
export type TensorDownloader = (tensors: readonly OrtTensor[]) => Promise<ArrayLike<number>[]>;

/** New device tensors: per tensor index, the sources' tensors padded to `capacity` slots, concatenated, rows picked. */
export type TensorRegrouper = (sources: readonly (readonly OrtTensor[])[], rows: readonly number[], capacity: number) => Promise<OrtTensor[]>;

interface ResidentGroup {
  group: KvGroup;
  presents: Record<string, OrtTensor>;
}

export class DeviceKvStore implements TalkerKvStore {
  private readonly resident = new Map<string, ResidentGroup>();
  /** Which resident group holds a sequence's newest positions (absent: all are in the pool). */
  private readonly location = new Map<number, string>();
  private readonly positions = new Map<number, number>();
  private readonly counts = { numRunsReused: 0, numRunsRegrouped: 0, numRunsStaged: 0, numGroupsDownloaded: 0 };

  constructor(
    readonly pool: HostKvPool,
    private readonly dtype: ActivationDtype,
    private readonly downloadTensors: TensorDownloader,
    private readonly onDispose: () => Promise<void> = async () => {},
    private readonly regroupTensors: TensorRegrouper | null = null,
  ) {}

  numPositions(sequenceId: number): number {
    return this.positions.get(sequenceId) ?? 0;
  }

  has(sequenceId: number): boolean {
    return this.positions.has(sequenceId);
  }

  async pastFeeds(group: KvGroup): Promise<Record<string, OrtTensor>> {
    const key = groupKey(group);
    const same = this.resident.get(key);
    if (same && group.sequenceIds.slice(0, group.numReal).every((id) => this.location.get(id) === key)) {
      this.resident.delete(key);
      this.counts.numRunsReused++;
      const feeds: Record<string, OrtTensor> = {};
      for (let layer = 0; layer < this.pool.dims.numLayers; layer++) {
        for (const which of [0, 1] as const) feeds[pastName(layer, which)] = same.presents[presentName(layer, which)];
      }
      return feeds;
    }
    const regrouped = await this.regroup(group);
    if (regrouped) return regrouped;
    for (const id of new Set(group.sequenceIds)) {
      const at = this.location.get(id);
      if (at !== undefined) await this.download(at);
    }
    this.counts.numRunsStaged++;
    return stagedFeeds(this.pool, group, this.dtype);
  }

  /** The group's past gathered from resident groups on the device, or null when a row is not resident. */
  private async regroup(group: KvGroup): Promise<Record<string, OrtTensor> | null> {
    if (!this.regroupTensors) return null;
    const sourceKeys: string[] = [];
    const rows: number[] = [];
    let offset = 0;
    const offsets = new Map<string, number>();
    for (const id of group.sequenceIds) {
      const key = this.location.get(id);
      const entry = key === undefined ? undefined : this.resident.get(key);
      if (!key || !entry) return null;
      if (!offsets.has(key)) {
        offsets.set(key, offset);
        sourceKeys.push(key);
        offset += entry.group.sequenceIds.length;
      }
      rows.push(offsets.get(key)! + entry.group.sequenceIds.indexOf(id));
    }
    const names = presentNames(this.pool.dims.numLayers);
    const sources = sourceKeys.map((key) => names.map((n) => this.resident.get(key)!.presents[n]));
    const tensors = await this.regroupTensors(sources, rows, group.capacity);
    this.counts.numRunsRegrouped++;
    const feeds: Record<string, OrtTensor> = {};
    names.forEach((_, i) => (feeds[pastName(Math.floor(i / 2), (i % 2) as 0 | 1)] = tensors[i]));
    return feeds;
  }

  async accept(group: KvGroup, feeds: Record<string, OrtTensor>, outputs: Record<string, OrtTensor>): Promise<void> {
    for (const t of Object.values(feeds)) disposeTensor(t);
    const key = groupKey(group);
    const presents = Object.fromEntries(presentNames(this.pool.dims.numLayers).map((n) => [n, outputs[n]]));
    this.resident.set(key, { group, presents });
    for (let b = 0; b < group.numReal; b++) {
      const id = group.sequenceIds[b];
      this.positions.set(id, this.numPositions(id) + group.numNew);
      this.location.set(id, key);
    }
    // groups whose every row moved on (regrouped on the device) hold nothing current
    const current = new Set(this.location.values());
    for (const old of [...this.resident.keys()]) if (!current.has(old)) this.drop(old);
  }

  release(sequenceId: number): void {
    const at = this.location.get(sequenceId);
    this.location.delete(sequenceId);
    this.positions.delete(sequenceId);
    this.pool.release(sequenceId);
    if (at !== undefined && ![...this.location.values()].includes(at)) this.drop(at);
  }

  /** A resident sequence's positions are copied down from its group's present tensors, which stay resident. */
  async readPositions(sequenceId: number, numPositions: number): Promise<ActivationData[]> {
    const at = this.location.get(sequenceId);
    const entry = at === undefined ? undefined : this.resident.get(at);
    if (!entry) return this.pool.read(sequenceId, numPositions);
    const d = this.pool.dims;
    const present = await this.downloadTensors(presentNames(d.numLayers).map((n) => entry.presents[n]));
    const row = entry.group.sequenceIds.indexOf(sequenceId);
    return present.map((all) => {
      const out = emptyActivation(this.dtype, d.numKvHeads * numPositions * d.headDim);
      // [rows, KVH, capacity, D] → [KVH, numPositions, D]
      for (let h = 0; h < d.numKvHeads; h++) {
        const from = ((row * d.numKvHeads + h) * entry.group.capacity) * d.headDim;
        for (let i = 0; i < numPositions * d.headDim; i++) out[h * numPositions * d.headDim + i] = all[from + i];
      }
      return out;
    });
  }

  /**
   * The prefix becomes a resident group of one row over host tensors (ORT uploads them as a run's
   * inputs), so the sequence regroups on the device with the others as if its prefix had run here.
   */
  writePositions(sequenceId: number, data: readonly ActivationData[], numPositions: number): void {
    if (this.positions.has(sequenceId)) throw new StudioError('internal', `sequence ${sequenceId} already holds KV; a prefix is written only before its prefill`);
    const d = this.pool.dims;
    const capacity = kvCapacity(numPositions, d.blockPositions);
    const group: KvGroup = { sequenceIds: [sequenceId], numReal: 1, capacity, numNew: numPositions };
    const presents: Record<string, OrtTensor> = {};
    presentNames(d.numLayers).forEach((name, i) => {
      // [KVH, numPositions, D] → [1, KVH, capacity, D], zeros after numPositions
      const padded = emptyActivation(this.dtype, d.numKvHeads * capacity * d.headDim);
      for (let h = 0; h < d.numKvHeads; h++) padded.set(data[i].subarray(h * numPositions * d.headDim, (h + 1) * numPositions * d.headDim) as never, h * capacity * d.headDim);
      presents[name] = tensor(this.dtype, padded, [1, d.numKvHeads, capacity, d.headDim]);
    });
    const key = groupKey(group);
    this.resident.set(key, { group, presents });
    this.location.set(sequenceId, key);
    this.positions.set(sequenceId, numPositions);
  }

  stats(): KvStoreStats {
    return { ...this.pool.stats(), strategy: 'device', ...this.counts, numResidentGroups: this.resident.size };
  }

  async dispose(): Promise<void> {
    for (const key of [...this.resident.keys()]) this.drop(key);
    this.location.clear();
    await this.onDispose();
  }

  /** Copies a resident group's rows that still live there into the pool, then frees its tensors. */
  private async download(key: string): Promise<void> {
    const entry = this.resident.get(key);
    if (!entry) return;
    this.counts.numGroupsDownloaded++;
    const names = presentNames(this.pool.dims.numLayers);
    const present = await this.downloadTensors(names.map((n) => entry.presents[n]));
    const rows = entry.group.sequenceIds
      .slice(0, entry.group.numReal)
      .map((id, row) => ({ row, sequenceId: id, end: this.numPositions(id) }))
      .filter((r) => this.location.get(r.sequenceId) === key);
    storeRows(this.pool, entry.group.capacity, present, rows);
    for (const r of rows) this.location.delete(r.sequenceId);
    this.drop(key);
  }

  private drop(key: string): void {
    const entry = this.resident.get(key);
    if (!entry) return;
    this.resident.delete(key);
    for (const t of Object.values(entry.presents)) disposeTensor(t);
  }
}
