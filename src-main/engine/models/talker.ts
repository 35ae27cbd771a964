/**
 * Talker stage over the ORT talker graph (prefill and decode in one graph, KV in/out per layer).
 * Keeps each sequence's KV cache in host memory. A batch is split into groups of rows with the same
 * past length and new-row count, and each group is one run with no padding: a row then sees the same
 * shapes and positions as it would alone, so only the GEMM's row count changes with the batch
 * (batch invariance, checked by engine.model.test.ts). Left-padded ragged batches were not used.
 * bucketRows > 0 (shape buckets) makes every run exactly that many rows: groups are split into runs
 * of bucketRows and a short run is filled with copies of its last row, whose outputs are dropped. On
 * WebGPU a decode row's logits changed with the run's row count even at 2–8 rows (docs/benchmarks.md).
 */
import { StudioError } from '../../../src-shared/errors';
import type { ModelManifest } from '../../model-builder/manifest';
import { runSession, tensor, type OrtSession, type OrtTensor } from '../runtime/ort';
import { activationTensor, toFloat32, type ActivationDtype, type ActivationData } from './activations';
import type { TalkerInput, TalkerOutput, TalkerStage } from './stages';

interface KvCache {
  numPositions: number;
  /** Per layer: [numKvHeads, numPositions, headDim] row-major, in the graph's dtype. */
  keys: ActivationData[];
  values: ActivationData[];
}

export class OrtTalker implements TalkerStage {
  readonly hiddenSize: number;
  private readonly caches = new Map<number, KvCache>();
  private readonly dtype: ActivationDtype;
  private readonly numLayers: number;
  private readonly numKvHeads: number;
  private readonly headDim: number;
  /** Group sizes of every run, for tests and the bench. */
  readonly runBatchSizes: number[] = [];

  /** @param bucketRows the row count of every run (0: a whole group in one run, unpadded). */
  constructor(private readonly session: OrtSession, manifest: ModelManifest, private readonly bucketRows = 0) {
    const t = manifest.talker;
    this.hiddenSize = t.hiddenSize;
    this.numLayers = t.numLayers;
    this.numKvHeads = t.numKvHeads;
    this.headDim = t.headDim;
    this.dtype = manifest.dtype === 'fp16' ? 'float16' : 'float32';
  }

  prefill(inputs: readonly TalkerInput[]): Promise<TalkerOutput[]> {
    for (const input of inputs) {
      if (this.caches.has(input.sequenceId)) throw new StudioError('internal', `sequence ${input.sequenceId} is prefilled twice`);
    }
    return this.runGrouped(inputs);
  }

  decode(inputs: readonly TalkerInput[]): Promise<TalkerOutput[]> {
    for (const input of inputs) {
      if (!this.caches.has(input.sequenceId)) throw new StudioError('internal', `sequence ${input.sequenceId} decodes before its prefill`);
    }
    return this.runGrouped(inputs);
  }

  release(sequenceId: number): void {
    this.caches.delete(sequenceId);
  }

  get numCachedSequences(): number {
    return this.caches.size;
  }

  async dispose(): Promise<void> {
    this.caches.clear();
    await this.session.release();
  }

  private async runGrouped(inputs: readonly TalkerInput[]): Promise<TalkerOutput[]> {
    const groups = new Map<string, number[]>();
    inputs.forEach((input, i) => {
      const key = `${this.caches.get(input.sequenceId)?.numPositions ?? 0}:${input.numRows}`;
      groups.set(key, [...(groups.get(key) ?? []), i]);
    });
    const outputs: TalkerOutput[] = new Array(inputs.length);
    const step = this.bucketRows > 0 ? this.bucketRows : inputs.length;
    for (const group of groups.values()) {
      for (let start = 0; start < group.length; start += step) {
        const indices = group.slice(start, start + step);
        const results = await this.runGroup(indices.map((i) => inputs[i]));
        indices.forEach((i, g) => (outputs[i] = results[g]));
      }
    }
    return outputs;
  }

  /** One run for rows that share past length and new-row count (padded to bucketRows when set). */
  private async runGroup(realRows: readonly TalkerInput[]): Promise<TalkerOutput[]> {
    const rows = [...realRows];
    while (rows.length < this.bucketRows) rows.push(realRows[realRows.length - 1]);
    this.runBatchSizes.push(rows.length);
    const batch = rows.length;
    const numNew = rows[0].numRows;
    const numPast = this.caches.get(rows[0].sequenceId)?.numPositions ?? 0;
    const numTotal = numPast + numNew;
    const h = this.hiddenSize;
    const embeds = new Float32Array(batch * numNew * h);
    rows.forEach((r, b) => embeds.set(r.embeds.subarray(0, numNew * h), b * numNew * h));
    const positions = new BigInt64Array(batch * numNew);
    for (let b = 0; b < batch; b++) for (let s = 0; s < numNew; s++) positions[b * numNew + s] = BigInt(numPast + s);
    const feeds: Record<string, OrtTensor> = {
      inputs_embeds: activationTensor(this.dtype, embeds, [batch, numNew, h]),
      attention_mask: tensor('int64', new BigInt64Array(batch * numTotal).fill(1n), [batch, numTotal]),
      position_ids: tensor('int64', positions, [batch, numNew]),
    };
    const kvDims = [batch, this.numKvHeads, numPast, this.headDim];
    for (let i = 0; i < this.numLayers; i++) {
      feeds[`past_key_${i}`] = tensor(this.dtype, this.stackPast(rows, i, 'keys'), kvDims);
      feeds[`past_value_${i}`] = tensor(this.dtype, this.stackPast(rows, i, 'values'), kvDims);
    }
    const out = await runSession(this.session, feeds);
    const logits = toFloat32(out.logits);
    const hidden = toFloat32(out.last_hidden);
    const vocab = logits.length / batch;
    const perRow = this.numKvHeads * numTotal * this.headDim;
    return realRows.map((r, b) => {
      const cache: KvCache = { numPositions: numTotal, keys: [], values: [] };
      for (let i = 0; i < this.numLayers; i++) {
        cache.keys.push((out[`present_key_${i}`].data as ActivationData).slice(b * perRow, (b + 1) * perRow));
        cache.values.push((out[`present_value_${i}`].data as ActivationData).slice(b * perRow, (b + 1) * perRow));
      }
      this.caches.set(r.sequenceId, cache);
      return { logits: logits.slice(b * vocab, (b + 1) * vocab), hidden: hidden.slice(b * h, (b + 1) * h) };
    });
  }

  private stackPast(rows: readonly TalkerInput[], layer: number, which: 'keys' | 'values'): ActivationData {
    const parts = rows.map((r) => this.caches.get(r.sequenceId)?.[which][layer]);
    const numPerRow = parts[0]?.length ?? 0;
    const out = this.dtype === 'float16' ? new Uint16Array(rows.length * numPerRow) : new Float32Array(rows.length * numPerRow);
    parts.forEach((p, b) => p && out.set(p as never, b * numPerRow));
    return out;
  }
}
