/**
 * Talker decode steps on the capture-ready graph (talker-decode.onnx) through IoBinding. A bucket per
 * (rows, capacity) owns fixed buffers: the KV cache (one buffer per layer bound as past and present,
 * written in place), the per-step inputs and the outputs; every run of a bucket uses the same
 * addresses and its own gpu_graph_id (captured on its first run when the session has capture on), in a
 * session of its own where the provider keeps one captured graph per session (graph-sessions.ts).
 * Inputs reach the bound buffers through an upload run and outputs leave through a download run (copy
 * graphs on the same provider, host on one side), so nothing but the step itself runs in the graph.
 * The host KV pool stays the record: every step's new rows go back to it (prefill and the prefix cache
 * read it). When a bucket holds other rows or lengths, rows that an open bucket holds are gathered on the
 * device (talker-row-sources.ts, the regroup graph) and only the others are staged from the pool.
 */
import { MASK_NEGATIVE } from '../../model-format/onnx/composite-ops';
import { buildCopyGraph, buildRegroupGraph, buildTypedCopyGraph, copyInputName, copyOutputName, REGROUP_CAPACITY, REGROUP_ROWS, regroupOutputName, regroupSourceName } from '../../model-format/copy-graph';
import type { ModelManifest } from '../../model-format/manifest';
import type { HostKvPool } from '../kv/host-kv-pool';
import { pastName, presentName } from '../kv/kv-store';
import type { StageBinding, StageBuffer } from '../runtime/runtime';
import { float16BitsToFloat32, float32ToFloat16Bits } from '../../model-format/float-bits';
import type { ActivationDtype } from './activations';
import { BoundBuckets, hostBytes, type BoundBucketStats, type BoundSetup } from './bound-buckets';
import type { BindableSession } from './graph-sessions';
import type { TalkerInput, TalkerOutput } from './stages';
import { planRowSources, stagesEveryRow, type RowSourcePlan } from './talker-row-sources';

/**
 * numRunsStaged: runs whose bucket held other rows or lengths, so its KV was rebuilt before the run;
 * numRunsRegrouped: those rebuilt by a gather on the device (rows from open buckets, and each distinct row staged from the
 * host pool once); the rest were staged wholly from the pool.
 */
export type BoundDecodeStats = BoundBucketStats & { numRunsRegrouped: number };

/** Open buckets one regroup reads at most (besides the rows staged from the pool). */
const MAX_DEVICE_SOURCES = 2;
type CopyName = 'upload' | 'kv' | 'download' | 'regroup1' | 'regroup2' | 'regroup3';

interface Bucket {
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
  newRows: StageBuffer[];
  kv: StageBuffer[];
  /** Which sequence at which length each row of the KV buffers holds ('id@positions'; '' when stale). */
  rowHolds: string[];
}

const STEP_INPUTS = ['inputs_embeds', 'position_ids', 'attention_bias', 'kv_write'] as const;

/** Copy bindings first: they bind the decode binding's buffers. */
function releaseBucket(b: Bucket): BindableSession[] {
  b.upload.release();
  b.download.release();
  b.decode.release();
  return [b.session];
}

export class BoundTalkerDecode {
  private readonly numLayers: number;
  private readonly hidden: number;
  private readonly vocab: number;

  private numRunsRegrouped = 0;

  private constructor(
    private readonly buckets: BoundBuckets<Bucket, CopyName>,
    manifest: ModelManifest,
    private readonly pool: HostKvPool,
    private readonly dtype: ActivationDtype,
  ) {
    this.numLayers = manifest.talker.numLayers;
    this.hidden = manifest.talker.hiddenSize;
    this.vocab = manifest.talker.vocabSize;
  }

  /** Opens the decode session (with the setup's capture options) and its copy sessions; buffers live where the setup says. */
  static async open(model: string, manifest: ModelManifest, pool: HostKvPool, setup: BoundSetup): Promise<BoundTalkerDecode> {
    const dtype: ActivationDtype = manifest.dtype === 'fp16' ? 'float16' : 'float32';
    const kvCount = manifest.talker.numLayers * 2;
    const buckets = await BoundBuckets.open(model, setup, {
      upload: buildTypedCopyGraph([dtype, 'int64', 'float32', 'float32'], [3, 2, 5, 4]),
      kv: buildCopyGraph(kvCount, dtype, 4),
      download: buildTypedCopyGraph(['float32', dtype, ...new Array<ActivationDtype>(kvCount).fill(dtype)], [3, 3, ...new Array<number>(kvCount).fill(4)]),
      // 1..3 sources: up to MAX_DEVICE_SOURCES open buckets, and the rows staged from the pool
      regroup1: buildRegroupGraph(1, kvCount, dtype),
      regroup2: buildRegroupGraph(2, kvCount, dtype),
      regroup3: buildRegroupGraph(3, kvCount, dtype),
    }, releaseBucket);
    return new BoundTalkerDecode(buckets, manifest, pool, dtype);
  }

  stats(): BoundDecodeStats {
    return { ...this.buckets.stats(), numRunsRegrouped: this.numRunsRegrouped };
  }

  /** One decode step for rows that share `capacity`; rows past numReal are padded copies (their KV rows are not stored). */
  async run(rows: readonly TalkerInput[], numReal: number, capacity: number): Promise<TalkerOutput[]> {
    const b = await this.bucket(rows.length, capacity);
    const positions = rows.map((r) => this.pool.numPositions(r.sequenceId));
    const want = rows.map((r, i) => `${r.sequenceId}@${positions[i]}`);
    if (b.rowHolds.join(',') !== want.join(',')) await this.rebuild(b, rows, want);
    b.rowHolds = [];
    this.writeStep(b, rows, positions);
    await this.buckets.timed('upload', () => b.upload.run(), hostBytes([b.embeds, b.positions, b.bias, b.write]));
    await this.buckets.timed('step', () => b.decode.run({ gpuGraphId: b.graphId }));
    await this.buckets.timed('download', () => b.download.run(), hostBytes([b.logits, b.hidden, ...b.newRows]));
    this.buckets.ran();
    const newRows = b.newRows.map((buf) => buf.host as ArrayLike<number>);
    for (let row = 0; row < numReal; row++) this.pool.write(rows[row].sequenceId, newRows, row, 1, positions[row], positions[row] + 1, positions[row]);
    b.rowHolds = rows.map((r, i) => `${r.sequenceId}@${positions[i] + 1}`);
    const logits = b.logits.host as Float32Array;
    const hidden = this.toFloat32(b.hidden.host as Float32Array | Uint16Array);
    const h = this.hidden;
    return rows.map((_, i) => ({ logits: logits.slice(i * this.vocab, (i + 1) * this.vocab), hidden: hidden.slice(i * h, (i + 1) * h) }));
  }

  dispose(): Promise<void> {
    return this.buckets.dispose();
  }

  private toFloat32(data: Float32Array | Uint16Array): Float32Array {
    return this.dtype === 'float16' ? float16BitsToFloat32(data as Uint16Array) : (data as Float32Array);
  }

  private writeStep(b: Bucket, rows: readonly TalkerInput[], positions: readonly number[]): void {
    const h = this.hidden;
    const embeds = new Float32Array(rows.length * h);
    rows.forEach((r, i) => embeds.set(r.embeds.subarray(0, h), i * h));
    (b.embeds.host as Float32Array | Uint16Array).set(this.dtype === 'float16' ? float32ToFloat16Bits(embeds) : embeds);
    const ids = b.positions.host as BigInt64Array;
    const bias = b.bias.host as Float32Array;
    const write = b.write.host as Float32Array;
    positions.forEach((p, i) => {
      ids[i] = BigInt(p);
      // the talker graph's mask for one new row at position p: slot t is seen when t <= p
      const row = bias.subarray(i * b.capacity, (i + 1) * b.capacity);
      row.fill(0, 0, p + 1);
      row.fill(MASK_NEGATIVE, p + 1);
      write.fill(0, i * b.capacity, (i + 1) * b.capacity);
      write[i * b.capacity + p] = 1;
    });
  }

  /** Makes the bucket's KV hold `want`: gathered on the device where open buckets hold rows of it, else staged from the pool. */
  private async rebuild(b: Bucket, rows: readonly TalkerInput[], want: readonly string[]): Promise<void> {
    this.buckets.staged();
    // the run's own bucket first, then the others most recently used first
    const others = this.buckets.openBuckets().filter((o) => o !== b).reverse();
    const holders = [b, ...others].map((o) => ({ key: `${o.rows}:${o.capacity}`, capacity: o.capacity, rows: o.rowHolds, bucket: o }));
    const plan = planRowSources(want, holders, b.capacity, MAX_DEVICE_SOURCES);
    if (stagesEveryRow(plan)) return this.stage(b, rows);
    this.numRunsRegrouped++;
    await this.regroup(b, rows, plan, plan.sources.map((key) => holders.find((h) => h.key === key)!.bucket));
  }

  /** One regroup run: the sources' rows and the fresh rows (staged from the pool) concatenated, padded to the capacity, rows picked. */
  private async regroup(b: Bucket, rows: readonly TalkerInput[], plan: RowSourcePlan, sources: readonly Bucket[]): Promise<void> {
    const numFresh = plan.fresh.length;
    const numInputs = sources.length + (numFresh > 0 ? 1 : 0);
    const binding = this.buckets.copies[`regroup${numInputs}` as CopyName].bind();
    try {
      const index = binding.input(REGROUP_ROWS, 'int64', [rows.length]).host as BigInt64Array;
      plan.pick.forEach((row, k) => (index[k] = BigInt(row)));
      (binding.input(REGROUP_CAPACITY, 'int64', [1]).host as BigInt64Array)[0] = BigInt(b.capacity);
      let numBytes = index.byteLength + 8;
      sources.forEach((source, s) => source.kv.forEach((buffer, i) => binding.attach(regroupSourceName(s, i), buffer, 'input')));
      if (numFresh > 0) {
        const views = this.pool.stage(plan.fresh.map((k) => rows[k].sequenceId), b.capacity);
        const dims = [numFresh, this.pool.dims.numKvHeads, b.capacity, this.pool.dims.headDim];
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
  private async stage(b: Bucket, rows: readonly TalkerInput[]): Promise<void> {
    const views = this.pool.stage(rows.map((r) => r.sequenceId), b.capacity);
    const binding = this.buckets.copies.kv.bind();
    try {
      const dims = [rows.length, this.pool.dims.numKvHeads, b.capacity, this.pool.dims.headDim];
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

  private bucket(rows: number, capacity: number): Promise<Bucket> {
    return this.buckets.bucket(`${rows}:${capacity}`, (session) => this.openBucket(session, rows, capacity));
  }

  private openBucket(session: BindableSession, rows: number, capacity: number): Bucket {
    const { numKvHeads, headDim } = this.pool.dims;
    const { copies, location: at } = this.buckets;
    const [decode, upload, download] = [session.bind(), copies.upload.bind(), copies.download.bind()];
    try {
      const stepDims = [[rows, 1, this.hidden], [rows, 1], [rows, 1, 1, 1, capacity], [rows, 1, capacity, 1]];
      const stepTypes = [this.dtype, 'int64', 'float32', 'float32'] as const;
      const step = STEP_INPUTS.map((name, i) => {
        const onDevice = decode.input(name, stepTypes[i], stepDims[i], at);
        upload.attach(copyOutputName(i), onDevice, 'output');
        return upload.input(copyInputName(i), stepTypes[i], stepDims[i]);
      });
      const kvDims = [rows, numKvHeads, capacity, headDim];
      const kv: StageBuffer[] = [];
      for (let layer = 0; layer < this.numLayers; layer++) {
        for (const which of [0, 1] as const) kv.push(decode.shared(pastName(layer, which), presentName(layer, which), this.dtype, kvDims, at));
      }
      const outNames = ['logits', 'last_hidden', ...Array.from({ length: this.numLayers }, (_, l) => [`new_key_${l}`, `new_value_${l}`]).flat()];
      const outTypes = ['float32', this.dtype, ...new Array<ActivationDtype>(outNames.length - 2).fill(this.dtype)] as const;
      const outDims = (i: number) => (i === 0 ? [rows, 1, this.vocab] : i === 1 ? [rows, 1, this.hidden] : [rows, numKvHeads, 1, headDim]);
      const out = outNames.map((name, i) => {
        download.attach(copyInputName(i), decode.output(name, outTypes[i], outDims(i), at), 'input');
        return download.output(copyOutputName(i), outTypes[i], outDims(i));
      });
      const [embeds, positions, bias, write] = step;
      return { rows, capacity, graphId: this.buckets.graphId(), session, decode, upload, download, embeds, positions, bias, write, logits: out[0], hidden: out[1], newRows: out.slice(2), kv, rowHolds: [] };
    } catch (err) {
      for (const binding of [upload, download, decode]) binding.release();
      throw err;
    }
  }
}
