/**
 * Talker decode steps on the capture-ready graph (talker-decode.onnx) through IoBinding. A bucket per
 * (rows, capacity) owns fixed buffers: the KV cache (one buffer per layer bound as past and present,
 * written in place), the per-step inputs and the outputs; every run of a bucket uses the same
 * addresses and its own gpu_graph_id (captured on its first run when the session has capture on), in a
 * session of its own where the provider keeps one captured graph per session (graph-sessions.ts).
 * Inputs reach the bound buffers through an upload run and outputs leave through a download run (copy
 * graphs on the same provider, host on one side), so nothing but the step itself runs in the graph;
 * only logits and the hidden state are downloaded. What the KV buffers hold, how a bucket is filled when
 * its rows change, and when the host pool is brought up to date: talker-bound-kv.ts.
 */
import { MASK_NEGATIVE } from '../../model-format/onnx/composite-ops';
import { buildCopyGraph, buildRegroupGraph, buildTypedCopyGraph, copyInputName, copyOutputName } from '../../model-format/copy-graph';
import type { ModelManifest } from '../../model-format/manifest';
import type { HostKvPool } from '../kv/host-kv-pool';
import { pastName, presentName } from '../kv/kv-store';
import type { StageBuffer } from '../runtime/runtime';
import { float16BitsToFloat32, float32ToFloat16Bits } from '../../model-format/float-bits';
import type { ActivationDtype } from './activations';
import { BoundBuckets, hostBytes, type BoundBucketStats, type BoundSetup } from './bound-buckets';
import type { BindableSession } from './graph-sessions';
import type { TalkerInput, TalkerOutput } from './stages';
import { TalkerBucketKv, type TalkerBucket, type TalkerCopyName } from './talker-bound-kv';

/**
 * numRunsStaged: runs whose bucket held other rows or lengths, so its KV was rebuilt before the run;
 * numRunsRegrouped: those rebuilt by a gather on the device (rows from open buckets, and each distinct row staged from the
 * host pool once); the rest were staged wholly from the pool. numPositionsWrittenBack: KV positions copied from buckets
 * to the pool (decode steps keep theirs on the device until the pool must be read).
 */
export type BoundDecodeStats = BoundBucketStats & { numRunsRegrouped: number; numPositionsWrittenBack: number };

const STEP_INPUTS = ['inputs_embeds', 'position_ids', 'attention_bias', 'kv_write'] as const;

/** Copy bindings first: they bind the decode binding's buffers. */
function releaseBucket(b: TalkerBucket): BindableSession[] {
  b.upload.release();
  b.download.release();
  b.decode.release();
  return [b.session];
}

export class BoundTalkerDecode {
  private readonly numLayers: number;
  private readonly hidden: number;
  private readonly vocab: number;

  private readonly kv: TalkerBucketKv;

  private constructor(
    private readonly buckets: BoundBuckets<TalkerBucket, TalkerCopyName>,
    manifest: ModelManifest,
    private readonly pool: HostKvPool,
    private readonly dtype: ActivationDtype,
  ) {
    this.kv = new TalkerBucketKv(buckets, pool, dtype);
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
      download: buildTypedCopyGraph(['float32', dtype], [3, 3]),
      // 1..3 sources: up to two open buckets (MAX_DEVICE_SOURCES, talker-bound-kv.ts) and the rows staged from the pool
      regroup1: buildRegroupGraph(1, kvCount, dtype),
      regroup2: buildRegroupGraph(2, kvCount, dtype),
      regroup3: buildRegroupGraph(3, kvCount, dtype),
    }, releaseBucket);
    return new BoundTalkerDecode(buckets, manifest, pool, dtype);
  }

  stats(): BoundDecodeStats {
    return { ...this.buckets.stats(), numRunsRegrouped: this.kv.numRunsRegrouped, numPositionsWrittenBack: this.kv.numPositionsWrittenBack };
  }

  /** A sequence's KV positions, counting those its bucket holds ahead of the pool. */
  numPositions(sequenceId: number): number {
    return this.kv.numPositions(sequenceId);
  }

  /** Brings the pool up to date for these sequences (before it is read: the prefix cache). */
  writeBack(sequenceIds: readonly number[]): Promise<void> {
    return this.kv.writeBack({ sequenceIds });
  }

  /** Forgets a released sequence's place in the buckets (the pool releases its blocks). */
  release(sequenceId: number): void {
    this.kv.forget(sequenceId);
  }

  /** One decode step for rows that share `capacity`; rows past numReal are padded copies (their KV rows are not stored). */
  async run(rows: readonly TalkerInput[], numReal: number, capacity: number): Promise<TalkerOutput[]> {
    // a bucket the LRU is about to release first gives back the positions it holds ahead of the pool
    await this.kv.writeBack({ buckets: this.buckets.evictedBy(`${rows.length}:${capacity}`) });
    const b = await this.bucket(rows.length, capacity);
    const ids = rows.map((r) => r.sequenceId);
    const positions = ids.map((id) => this.kv.numPositions(id));
    const want = ids.map((id, i) => `${id}@${positions[i]}`);
    if (b.rowHolds.join(',') !== want.join(',')) await this.kv.fill(b, ids, want);
    b.rowHolds = [];
    this.writeStep(b, rows, positions);
    await this.buckets.timed('upload', () => b.upload.run(), hostBytes([b.embeds, b.positions, b.bias, b.write]));
    await this.buckets.timed('step', () => b.decode.run({ gpuGraphId: b.graphId }));
    await this.buckets.timed('download', () => b.download.run(), hostBytes([b.logits, b.hidden]));
    this.buckets.ran();
    this.kv.ran(b, rows, numReal, positions.map((p) => p + 1));
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

  private writeStep(b: TalkerBucket, rows: readonly TalkerInput[], positions: readonly number[]): void {
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

  private bucket(rows: number, capacity: number): Promise<TalkerBucket> {
    return this.buckets.bucket(`${rows}:${capacity}`, (session) => this.openBucket(session, rows, capacity));
  }

  private openBucket(session: BindableSession, rows: number, capacity: number): TalkerBucket {
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
      // logits and the hidden state are downloaded; the new KV rows stay bound on the device (the graph also wrote them in place)
      const out = outNames.map((name, i) => {
        const onDevice = decode.output(name, outTypes[i], outDims(i), at);
        if (i >= 2) return onDevice;
        download.attach(copyInputName(i), onDevice, 'input');
        return download.output(copyOutputName(i), outTypes[i], outDims(i));
      });
      const [embeds, positions, bias, write] = step;
      return { rows, capacity, graphId: this.buckets.graphId(), session, decode, upload, download, embeds, positions, bias, write, logits: out[0], hidden: out[1], kv, rowHolds: [] };
    } catch (err) {
      for (const binding of [upload, download, decode]) binding.release();
      throw err;
    }
  }
}
