/**
 * Host-resident KV strategy: each run stages its rows' stored positions from the block pool into
 * reusable buffers and, after the run, copies only the new positions of the real rows back.
 */
import { StudioError } from '../../../src-shared/errors';
import { tensor, type OrtTensor } from '../runtime/ort';
import type { ActivationData, ActivationDtype } from '../stages/activations';
import type { HostKvPool } from './host-kv-pool';
import { pastName, presentNames, type KvGroup, type KvStoreStats, type TalkerKvStore } from './kv-store';

export class HostKvStore implements TalkerKvStore {
  private numRunsStaged = 0;

  constructor(readonly pool: HostKvPool, private readonly dtype: ActivationDtype) {}

  numPositions(sequenceId: number): number {
    return this.pool.numPositions(sequenceId);
  }

  has(sequenceId: number): boolean {
    return this.pool.has(sequenceId);
  }

  async pastFeeds(group: KvGroup): Promise<Record<string, OrtTensor>> {
    this.numRunsStaged++;
    return stagedFeeds(this.pool, group, this.dtype);
  }

  async accept(group: KvGroup, _feeds: Record<string, OrtTensor>, outputs: Record<string, OrtTensor>): Promise<void> {
    const present = presentNames(this.pool.dims.numLayers).map((n) => outputs[n].data as ArrayLike<number>);
    const rows = group.sequenceIds.slice(0, group.numReal).map((id, row) => ({ row, sequenceId: id, end: this.pool.numPositions(id) + group.numNew }));
    storeRows(this.pool, group.capacity, present, rows);
  }

  release(sequenceId: number): void {
    this.pool.release(sequenceId);
  }

  async readPositions(sequenceId: number, numPositions: number): Promise<ActivationData[]> {
    return this.pool.read(sequenceId, numPositions);
  }

  writePositions(sequenceId: number, data: readonly ActivationData[], numPositions: number): void {
    writeNewSequence(this.pool, sequenceId, data, numPositions);
  }

  stats(): KvStoreStats {
    return { ...this.pool.stats(), strategy: 'host', numRunsReused: 0, numRunsRegrouped: 0, numRunsStaged: this.numRunsStaged, numGroupsDownloaded: 0, numResidentGroups: 0 };
  }

  async dispose(): Promise<void> {}
}

/** Past feeds of a group staged from the pool. */
export function stagedFeeds(pool: HostKvPool, group: KvGroup, dtype: ActivationDtype): Record<string, OrtTensor> {
  const d = pool.dims;
  const views = pool.stage(group.sequenceIds, group.capacity);
  const dims = [group.sequenceIds.length, d.numKvHeads, group.capacity, d.headDim];
  const feeds: Record<string, OrtTensor> = {};
  for (let layer = 0; layer < d.numLayers; layer++) {
    for (const which of [0, 1] as const) feeds[pastName(layer, which)] = tensor(dtype, views[layer * 2 + which], dims);
  }
  return feeds;
}

/** Positions [0, numPositions) for a sequence that holds none, from arrays [numKvHeads, numPositions, headDim] (one row of that capacity). */
function writeNewSequence(pool: HostKvPool, sequenceId: number, data: readonly ActivationData[], numPositions: number): void {
  if (pool.has(sequenceId)) throw new StudioError('internal', `sequence ${sequenceId} already holds KV; a prefix is written only before its prefill`);
  pool.write(sequenceId, data, 0, numPositions, 0, numPositions);
}

/** Copies each listed row's positions [stored, end) from present arrays [rows, KVH, capacity, D] into the pool. */
export function storeRows(pool: HostKvPool, capacity: number, present: readonly ArrayLike<number>[], rows: readonly { row: number; sequenceId: number; end: number }[]): void {
  for (const r of rows) pool.write(r.sequenceId, present, r.row, capacity, pool.numPositions(r.sequenceId), r.end);
}
