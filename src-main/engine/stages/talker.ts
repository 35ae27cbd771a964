/**
 * Talker stage over the ORT talker graph (prefill and decode in one graph, fixed-capacity KV per
 * layer). A batch is split into groups of rows with the same KV capacity (a row's position count
 * rounded up to 1, 2, 4, … blocks, so it depends on that row alone) and new-row count; each group is one
 * run, so a row's shapes and values never depend on its batch-mates (batch invariance, checked by
 * engine.model.test.ts). bucketRows > 0 (shape buckets) makes every decode run exactly that many
 * rows, prefillBucketRows every prefill run: groups are split into runs of that size and a short run
 * is filled with copies of its last row, whose outputs are dropped (on WebGPU a row's logits changed
 * with the run's row count). The KV cache lives in a TalkerKvStore (host pool, or device-resident on WebGPU).
 * With boundDecode, decode groups run on the capture-ready graph instead (talker-bound-decode.ts).
 */
import { StudioError } from '../../../src-shared/errors';
import type { ModelManifest } from '../../model-format/manifest';
import { fillAttentionMask, kvCapacity } from '../kv/kv-layout';
import type { KvGroup, KvStoreStats, TalkerKvStore } from '../kv/kv-store';
import type { PrefixKv } from '../kv/prefix-kv-cache';
import { disposeTensor, runSession, tensor, type OrtSession, type OrtTensor } from '../runtime/ort';
import { activationTensor, toFloat32, type ActivationDtype } from './activations';
import { callInChunks, fixedChunks } from './bucketed-stages';
import type { TalkerInput, TalkerOutput, TalkerStage } from './stages';
import type { BoundDecodeStats, BoundTalkerDecode } from './talker-bound-decode';

export interface OrtTalkerOptions {
  kv: TalkerKvStore;
  /** KV capacities are multiples of this many positions. */
  blockPositions: number;
  /** The row count of every decode run (0: a whole group in one run, unpadded). */
  bucketRows: number;
  /** The row count of every prefill run (0: a whole group in one run, unpadded). */
  prefillBucketRows: number;
  /** Decode steps on the capture-ready graph over bound buffers (kv must then be the host store over the same pool). */
  boundDecode?: BoundTalkerDecode;
}

export class OrtTalker implements TalkerStage {
  readonly hiddenSize: number;
  private readonly dtype: ActivationDtype;
  /** Row counts of every run, and of the prefill runs among them, for tests and the bench. */
  readonly runBatchSizes: number[] = [];
  readonly prefillRunBatchSizes: number[] = [];

  constructor(private readonly session: OrtSession, manifest: ModelManifest, private readonly options: OrtTalkerOptions) {
    this.hiddenSize = manifest.talker.hiddenSize;
    this.dtype = manifest.dtype === 'fp16' ? 'float16' : 'float32';
  }

  /** Prompt rows after what each sequence holds: none, or a prefix from an earlier prefill or writePrefixKv. */
  async prefill(inputs: readonly TalkerInput[]): Promise<TalkerOutput[]> {
    const numRunsBefore = this.runBatchSizes.length;
    const outputs = await this.runGrouped(inputs, this.options.prefillBucketRows);
    for (let i = numRunsBefore; i < this.runBatchSizes.length; i++) this.prefillRunBatchSizes.push(this.runBatchSizes[i]);
    return outputs;
  }

  decode(inputs: readonly TalkerInput[]): Promise<TalkerOutput[]> {
    for (const input of inputs) {
      if (!this.options.kv.has(input.sequenceId)) throw new StudioError('internal', `sequence ${input.sequenceId} decodes before its prefill`);
    }
    return this.runGrouped(inputs, this.options.bucketRows, true);
  }

  release(sequenceId: number): void {
    this.options.boundDecode?.release(sequenceId);
    this.options.kv.release(sequenceId);
  }

  async readPrefixKv(sequenceId: number, numPositions: number): Promise<PrefixKv> {
    await this.options.boundDecode?.writeBack([sequenceId]);
    return { numPositions, data: await this.options.kv.readPositions(sequenceId, numPositions) };
  }

  async writePrefixKv(sequenceId: number, prefix: PrefixKv): Promise<void> {
    this.options.kv.writePositions(sequenceId, prefix.data, prefix.numPositions);
  }

  kvStats(): KvStoreStats {
    return this.options.kv.stats();
  }

  /** Runs, stagings and buckets of the capture-ready decode form (null when decode runs talker.onnx). */
  boundDecodeStats(): BoundDecodeStats | null {
    return this.options.boundDecode?.stats() ?? null;
  }

  async dispose(): Promise<void> {
    await this.options.boundDecode?.dispose();
    await this.options.kv.dispose();
    await this.session.release();
  }

  /** KV positions a sequence holds (the bound decode's buckets can hold some ahead of the pool). */
  private numPositions(sequenceId: number): number {
    return this.options.boundDecode ? this.options.boundDecode.numPositions(sequenceId) : this.options.kv.numPositions(sequenceId);
  }

  private async runGrouped(inputs: readonly TalkerInput[], bucketRows: number, isDecode = false): Promise<TalkerOutput[]> {
    const groups = new Map<string, number[]>();
    inputs.forEach((input, i) => {
      const capacity = kvCapacity(this.numPositions(input.sequenceId) + input.numRows, this.options.blockPositions);
      const key = `${capacity}:${input.numRows}`;
      groups.set(key, [...(groups.get(key) ?? []), i]);
    });
    const outputs: TalkerOutput[] = new Array(inputs.length);
    for (const [key, group] of groups) {
      const capacity = Number(key.split(':')[0]);
      const chunks = bucketRows > 0 ? fixedChunks(group.length, bucketRows) : [group.length];
      const results = await callInChunks(group.map((i) => inputs[i]), chunks, bucketRows, (rows, numReal) => this.runGroup(rows, numReal, capacity, isDecode), this.runBatchSizes);
      group.forEach((i, g) => (outputs[i] = results[g]));
    }
    return outputs;
  }

  /** One run for rows that share KV capacity and new-row count; rows past numReal are padded copies. */
  private async runGroup(rows: readonly TalkerInput[], numReal: number, capacity: number, isDecode: boolean): Promise<TalkerOutput[]> {
    if (isDecode && this.options.boundDecode) return this.options.boundDecode.run(rows, numReal, capacity);
    const batch = rows.length;
    const numNew = rows[0].numRows;
    const h = this.hiddenSize;
    const embeds = new Float32Array(batch * numNew * h);
    const positions = new BigInt64Array(batch * numNew);
    const mask = new BigInt64Array(batch * capacity);
    rows.forEach((r, b) => {
      embeds.set(r.embeds.subarray(0, numNew * h), b * numNew * h);
      const numPast = this.numPositions(r.sequenceId);
      for (let s = 0; s < numNew; s++) positions[b * numNew + s] = BigInt(numPast + s);
      fillAttentionMask(mask, b * capacity, numPast + numNew, capacity);
    });
    const group: KvGroup = { sequenceIds: rows.map((r) => r.sequenceId), numReal, capacity, numNew };
    const past = await this.options.kv.pastFeeds(group);
    const feeds: Record<string, OrtTensor> = {
      ...past,
      inputs_embeds: activationTensor(this.dtype, embeds, [batch, numNew, h]),
      attention_mask: tensor('int64', mask, [batch, capacity]),
      position_ids: tensor('int64', positions, [batch, numNew]),
    };
    let out: Record<string, OrtTensor>;
    try {
      out = await runSession(this.session, feeds);
    } catch (err) {
      for (const t of Object.values(past)) disposeTensor(t);
      throw err;
    }
    await this.options.kv.accept(group, past, out);
    const logits = toFloat32(out.logits);
    const hidden = toFloat32(out.last_hidden);
    const vocab = logits.length / batch;
    return rows.map((_, b) => ({ logits: logits.slice(b * vocab, (b + 1) * vocab), hidden: hidden.slice(b * h, (b + 1) * h) }));
  }
}
