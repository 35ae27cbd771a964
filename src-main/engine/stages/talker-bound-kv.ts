/**
 * The KV side of the bound talker decode (talker-bound-decode.ts): what each bucket's KV buffers hold, how a
 * bucket is filled before a run (rows gathered on the device from open buckets with the rest staged from the
 * host pool once each, or, when no open bucket holds a row, the whole bucket staged: talker-row-sources.ts),
 * and where each sequence's newest positions live. A decode
 * step's new positions stay in its bucket; the pool, the record that prefill and the prefix cache read, is
 * written back only when it must be read, or before a bucket holding them is overwritten or released.
 */
import { copyInputName, copyOutputName, REGROUP_CAPACITY, REGROUP_ROWS, regroupOutputName, regroupSourceName } from '../../model-format/copy-graph';
import type { HostKvPool } from '../kv/host-kv-pool';
import type { StageBinding, StageBuffer } from '../runtime/runtime';
import type { ActivationDtype } from './activations';
import type { BoundBuckets } from './bound-buckets';
import type { BindableSession } from './graph-sessions';
import { planRowSources, readsNoBucket, type RowSourcePlan } from './talker-row-sources';

export interface TalkerBucket {
  rows: number;
  capacity: number;
  graphId: number;
  session: BindableSession;
  decode: StageBinding;
  upload: StageBinding;
  download: StageBinding;
  /** Host views: upload inputs, download outputs. */
  embeds: StageBuffer;
  positions: StageBuffer;
  bias: StageBuffer;
  write: StageBuffer;
  logits: StageBuffer;
  hidden: StageBuffer;
  kv: StageBuffer[];
  /** Which sequence at which length each row of the KV buffers holds ('id@positions'; '' when stale). */
  rowHolds: string[];
}

export type TalkerCopyName = 'upload' | 'kv' | 'download' | 'regroup1' | 'regroup2' | 'regroup3';

/** Open buckets one regroup reads at most (besides the rows staged from the pool). */
const MAX_DEVICE_SOURCES = 2;

export class TalkerBucketKv {
  /** Sequences whose newest positions are in a bucket row, ahead of the pool. */
  private readonly ahead = new Map<number, { bucket: TalkerBucket; row: number; numPositions: number }>();
  numRunsRegrouped = 0;
  /** Positions written back to the pool from a bucket (before the pool was read or the bucket overwritten). */
  numPositionsWrittenBack = 0;

  constructor(
    private readonly buckets: BoundBuckets<TalkerBucket, TalkerCopyName>,
    private readonly pool: HostKvPool,
    private readonly dtype: ActivationDtype,
  ) {}

  /** The sequence's positions, counting those still only in a bucket. */
  numPositions(sequenceId: number): number {
    return this.ahead.get(sequenceId)?.numPositions ?? this.pool.numPositions(sequenceId);
  }

  /** After a run of `b`: its real rows now hold their sequences' newest positions. */
  ran(b: TalkerBucket, rows: readonly { sequenceId: number }[], numReal: number, positionsAfter: readonly number[]): void {
    for (let row = 0; row < numReal; row++) this.ahead.set(rows[row].sequenceId, { bucket: b, row, numPositions: positionsAfter[row] });
    b.rowHolds = rows.map((r, i) => `${r.sequenceId}@${positionsAfter[i]}`);
  }

  forget(sequenceId: number): void {
    this.ahead.delete(sequenceId);
  }

  /** Writes back what buckets hold ahead of the pool: for these sequences, or for every sequence in these buckets. */
  async writeBack(which: { sequenceIds?: Iterable<number>; buckets?: readonly TalkerBucket[] }): Promise<void> {
    const ids = new Set(which.sequenceIds ?? []);
    const byBucket = new Map<TalkerBucket, number[]>();
    for (const [id, at] of this.ahead) {
      if (!ids.has(id) && !which.buckets?.includes(at.bucket)) continue;
      byBucket.set(at.bucket, [...(byBucket.get(at.bucket) ?? []), id]);
    }
    for (const [b, seqs] of byBucket) await this.download(b, seqs);
  }

  /** Makes the bucket's KV hold `want` (one 'id@positions' key a row): gathered on the device where it can, else staged from the pool. */
  async fill(b: TalkerBucket, sequenceIds: readonly number[], want: readonly string[]): Promise<void> {
    this.buckets.staged();
    // rows of b whose newest positions no run row keeps are about to be overwritten
    await this.writeBack({ sequenceIds: [...this.ahead].filter(([id, at]) => at.bucket === b && !sequenceIds.includes(id)).map(([id]) => id) });
    // the run's own bucket first, then the others most recently used first
    const others = this.buckets.openBuckets().filter((o) => o !== b).reverse();
    const holders = [b, ...others].map((o) => ({ key: `${o.rows}:${o.capacity}`, capacity: o.capacity, rows: o.rowHolds, bucket: o }));
    const plan = planRowSources(want, holders, b.capacity, MAX_DEVICE_SOURCES);
    const freshIds = plan.fresh.map((k) => sequenceIds[k]);
    // rows staged from the pool: theirs first, from wherever they are ahead
    await this.writeBack({ sequenceIds: freshIds });
    b.rowHolds = [];
    if (readsNoBucket(plan)) return this.stage(b, sequenceIds);
    this.numRunsRegrouped++;
    await this.regroup(b, freshIds, plan, plan.sources.map((key) => holders.find((h) => h.key === key)!.bucket));
  }

  /** One regroup run: the sources' rows and the fresh rows (staged from the pool) concatenated, padded to the capacity, rows picked. */
  private async regroup(b: TalkerBucket, freshIds: readonly number[], plan: RowSourcePlan, sources: readonly TalkerBucket[]): Promise<void> {
    const numInputs = sources.length + (freshIds.length > 0 ? 1 : 0);
    const binding = this.buckets.copies[`regroup${numInputs}` as TalkerCopyName].bind();
    try {
      const index = binding.input(REGROUP_ROWS, 'int64', [plan.pick.length]).host as BigInt64Array;
      plan.pick.forEach((row, k) => (index[k] = BigInt(row)));
      (binding.input(REGROUP_CAPACITY, 'int64', [1]).host as BigInt64Array)[0] = BigInt(b.capacity);
      let numBytes = index.byteLength + 8;
      sources.forEach((source, s) => source.kv.forEach((buffer, i) => binding.attach(regroupSourceName(s, i), buffer, 'input')));
      if (freshIds.length > 0) {
        const views = this.pool.stage(freshIds, b.capacity);
        const dims = [freshIds.length, this.pool.dims.numKvHeads, b.capacity, this.pool.dims.headDim];
        views.forEach((view, i) => {
          const host = binding.input(regroupSourceName(sources.length, i), this.dtype, dims).host as Float32Array | Uint16Array;
          host.set(view as never);
          numBytes += host.byteLength;
        });
      }
      b.kv.forEach((buffer, i) => binding.attach(regroupOutputName(i), buffer, 'output'));
      await this.buckets.timed('stage', () => binding.run(), numBytes);
    } finally {
      binding.release();
    }
  }

  /** Stages the rows' stored positions from the pool into the bucket's KV buffers (one copy run). */
  private async stage(b: TalkerBucket, sequenceIds: readonly number[]): Promise<void> {
    const views = this.pool.stage(sequenceIds, b.capacity);
    const binding = this.buckets.copies.kv.bind();
    try {
      const dims = [sequenceIds.length, this.pool.dims.numKvHeads, b.capacity, this.pool.dims.headDim];
      let numBytes = 0;
      views.forEach((view, i) => {
        const host = binding.input(copyInputName(i), this.dtype, dims).host as Float32Array | Uint16Array;
        host.set(view as never);
        numBytes += host.byteLength;
        binding.attach(copyOutputName(i), b.kv[i], 'output');
      });
      await this.buckets.timed('stage', () => binding.run(), numBytes);
    } finally {
      binding.release();
    }
  }

  /** Copies the bucket's KV buffers to the host and writes these sequences' positions the pool lacks (one copy run). */
  private async download(b: TalkerBucket, sequenceIds: readonly number[]): Promise<void> {
    const binding = this.buckets.copies.kv.bind();
    try {
      const dims = [b.rows, this.pool.dims.numKvHeads, b.capacity, this.pool.dims.headDim];
      const out = b.kv.map((buffer, i) => {
        binding.attach(copyInputName(i), buffer, 'input');
        return binding.output(copyOutputName(i), this.dtype, dims);
      });
      await this.buckets.timed('download', () => binding.run(), out.reduce((n, o) => n + (o.host as ArrayBufferView).byteLength, 0));
      const views = out.map((o) => o.host as ArrayLike<number>);
      for (const id of sequenceIds) {
        const at = this.ahead.get(id)!;
        const from = this.pool.numPositions(id);
        this.pool.write(id, views, at.row, b.capacity, from, at.numPositions);
        this.numPositionsWrittenBack += at.numPositions - from;
        this.ahead.delete(id);
      }
    } finally {
      binding.release();
    }
  }
}
