/**
 * Talker decode steps on the capture-ready graph (talker-decode.onnx) through IoBinding. A bucket per
 * (rows, capacity) owns fixed buffers: the KV cache (one buffer per layer bound as past and present,
 * written in place), the per-step inputs and the outputs; every run of a bucket uses the same
 * addresses and its own gpu_graph_id (captured on its first run when the session has capture on), in a
 * session of its own where the provider keeps one captured graph per session (graph-sessions.ts).
 * Inputs reach the bound buffers through an upload run and outputs leave through a download run (copy
 * graphs on the same provider, host on one side), so nothing but the step itself runs in the graph.
 * The host KV pool stays the record: a bucket's KV is staged from it when the bucket holds other
 * rows or lengths, and every step's new rows go back to it (prefill and regrouping keep using it).
 */
import { MASK_NEGATIVE } from '../../model-format/onnx/composite-ops';
import { buildCopyGraph, buildTypedCopyGraph, copyInputName, copyOutputName } from '../../model-format/copy-graph';
import type { ModelManifest } from '../../model-format/manifest';
import type { HostKvPool } from '../kv/host-kv-pool';
import { pastName, presentName } from '../kv/kv-store';
import type { StageBinding, StageBuffer, StageSession } from '../runtime/runtime';
import { float16BitsToFloat32, float32ToFloat16Bits } from '../../model-format/float-bits';
import type { ActivationDtype } from './activations';
import { lruEntryAsync } from './bound-runs';
import { FIRST_GPU_GRAPH_ID, openBoundStage, type BindableSession, type GraphSessions, type OpenSession } from './graph-sessions';
import type { TalkerInput, TalkerOutput } from './stages';

export interface BoundDecodeStats {
  numRuns: number;
  /** Runs whose bucket held other rows or lengths, so the KV was staged from the host pool. */
  numRunsStaged: number;
  numBuckets: number;
  /** gpu_graph_id values handed out (one per bucket ever opened; never reused, as a captured graph keeps its addresses). */
  numGraphIds: number;
  /** Decode sessions open (1, or one per bucket where the provider keeps one captured graph per session). */
  numSessions: number;
}

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
  /** Which rows at which lengths the KV buffers hold ('' when stale). */
  holds: string;
}

const STEP_INPUTS = ['inputs_embeds', 'position_ids', 'attention_bias', 'kv_write'] as const;

export class BoundTalkerDecode {
  private readonly buckets = new Map<string, Bucket>();
  private readonly numLayers: number;
  private readonly hidden: number;
  private readonly vocab: number;
  private nextGraphId = FIRST_GPU_GRAPH_ID;
  private numRuns = 0;
  private numRunsStaged = 0;

  private constructor(
    private readonly steps: GraphSessions,
    private readonly copies: { upload: StageSession; kv: StageSession; download: StageSession },
    manifest: ModelManifest,
    private readonly pool: HostKvPool,
    private readonly dtype: ActivationDtype,
    private readonly location: 'cpu' | 'device',
    private readonly maxBuckets: number,
  ) {
    this.numLayers = manifest.talker.numLayers;
    this.hidden = manifest.talker.hiddenSize;
    this.vocab = manifest.talker.vocabSize;
  }

  /** Opens the decode session (with `captureOptions`) and its copy sessions; buffers live on the provider's device unless it has none. */
  static async open(model: string, manifest: ModelManifest, pool: HostKvPool, open: OpenSession, captureOptions: Record<string, string>, location: 'cpu' | 'device', maxBuckets: number, perGraph = false): Promise<BoundTalkerDecode> {
    const dtype: ActivationDtype = manifest.dtype === 'fp16' ? 'float16' : 'float32';
    const kvCount = manifest.talker.numLayers * 2;
    const { steps, copies } = await openBoundStage(open, model, captureOptions, perGraph, {
      upload: buildTypedCopyGraph([dtype, 'int64', 'float32', 'float32'], [3, 2, 5, 4]),
      kv: buildCopyGraph(kvCount, dtype, 4),
      download: buildTypedCopyGraph(['float32', dtype, ...new Array<ActivationDtype>(kvCount).fill(dtype)], [3, 3, ...new Array<number>(kvCount).fill(4)]),
    });
    return new BoundTalkerDecode(steps, copies, manifest, pool, dtype, location, maxBuckets);
  }

  stats(): BoundDecodeStats {
    return { numRuns: this.numRuns, numRunsStaged: this.numRunsStaged, numBuckets: this.buckets.size, numGraphIds: this.nextGraphId - FIRST_GPU_GRAPH_ID, numSessions: this.steps.numOpen };
  }

  /** One decode step for rows that share `capacity`; rows past numReal are padded copies (their KV rows are not stored). */
  async run(rows: readonly TalkerInput[], numReal: number, capacity: number): Promise<TalkerOutput[]> {
    const b = await this.bucket(rows.length, capacity);
    const positions = rows.map((r) => this.pool.numPositions(r.sequenceId));
    const holds = rows.map((r, i) => `${r.sequenceId}@${positions[i]}`).join(',');
    if (b.holds !== holds) await this.stage(b, rows);
    b.holds = '';
    this.writeStep(b, rows, positions);
    await b.upload.run();
    await b.decode.run({ gpuGraphId: b.graphId });
    await b.download.run();
    this.numRuns++;
    const newRows = b.newRows.map((buf) => buf.host as ArrayLike<number>);
    for (let row = 0; row < numReal; row++) this.pool.write(rows[row].sequenceId, newRows, row, 1, positions[row], positions[row] + 1, positions[row]);
    b.holds = rows.map((r, i) => `${r.sequenceId}@${positions[i] + 1}`).join(',');
    const logits = b.logits.host as Float32Array;
    const hidden = this.toFloat32(b.hidden.host as Float32Array | Uint16Array);
    const h = this.hidden;
    return rows.map((_, i) => ({ logits: logits.slice(i * this.vocab, (i + 1) * this.vocab), hidden: hidden.slice(i * h, (i + 1) * h) }));
  }

  async dispose(): Promise<void> {
    for (const b of this.buckets.values()) this.releaseBucket(b);
    this.buckets.clear();
    for (const s of [this.copies.upload, this.copies.kv, this.copies.download]) await s.release();
    await this.steps.dispose();
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

  /** Stages the rows' stored positions from the pool into the bucket's KV buffers (one copy run). */
  private async stage(b: Bucket, rows: readonly TalkerInput[]): Promise<void> {
    this.numRunsStaged++;
    const views = this.pool.stage(rows.map((r) => r.sequenceId), b.capacity);
    const binding = this.bind(this.copies.kv);
    try {
      const dims = [rows.length, this.pool.dims.numKvHeads, b.capacity, this.pool.dims.headDim];
      views.forEach((view, i) => {
        (binding.input(copyInputName(i), this.dtype, dims).host as Float32Array | Uint16Array).set(view as never);
        binding.attach(copyOutputName(i), b.kv[i], 'output');
      });
      await binding.run();
    } finally {
      binding.release();
    }
  }

  private bind(session: StageSession): StageBinding {
    return session.bind!();
  }

  private bucket(rows: number, capacity: number): Promise<Bucket> {
    return lruEntryAsync(this.buckets, `${rows}:${capacity}`, this.maxBuckets, this.steps, (session) => this.openBucket(session, rows, capacity), (old) => this.releaseBucket(old));
  }

  private openBucket(session: BindableSession, rows: number, capacity: number): Bucket {
    const { numKvHeads, headDim } = this.pool.dims;
    const at = this.location;
    const [decode, upload, download] = [this.bind(session), this.bind(this.copies.upload), this.bind(this.copies.download)];
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
      return { rows, capacity, graphId: this.nextGraphId++, session, decode, upload, download, embeds, positions, bias, write, logits: out[0], hidden: out[1], newRows: out.slice(2), kv, holds: '' };
    } catch (err) {
      for (const binding of [upload, download, decode]) binding.release();
      throw err;
    }
  }

  /** Copy bindings first: they bind the decode binding's buffers. */
  private releaseBucket(b: Bucket): BindableSession[] {
    b.upload.release();
    b.download.release();
    b.decode.release();
    return [b.session];
  }
}
