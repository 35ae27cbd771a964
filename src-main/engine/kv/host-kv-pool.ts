/**
 * Host-resident KV memory for the talker: a pool of fixed-size blocks (every layer's keys and values
 * for blockPositions positions) and a block table per sequence. initialBlocks are allocated up
 * front; the pool grows block by block up to maxBlocks and never shrinks, so a steady load reuses
 * the same memory. Staging copies a row's positions into a reusable [rows, KVH, capacity, D] buffer.
 */
import { StudioError } from '../../../src-shared/errors';
import type { ActivationData, ActivationDtype } from '../stages/activations';
import { blockElements, blockOffset, stagedElements, type KvDims } from './kv-layout';

export interface HostKvPoolOptions {
  dims: KvDims;
  dtype: ActivationDtype;
  initialBlocks: number;
  maxBlocks: number;
}

export interface KvPoolStats {
  numBlocksAllocated: number;
  numBlocksFree: number;
  maxBlocks: number;
  numSequences: number;
  /** Elements held by the staging buffers (their high-water size). */
  numStagingElements: number;
}

export class HostKvPool {
  readonly dims: KvDims;
  private readonly blocks: ActivationData[] = [];
  private readonly freeBlocks: number[] = [];
  private readonly tables = new Map<number, { blocks: number[]; numPositions: number }>();
  /** One staging buffer per layer and keys/values, grown to the largest run seen. */
  private staging: ActivationData[] = [];

  constructor(private readonly options: HostKvPoolOptions) {
    this.dims = options.dims;
    if (options.initialBlocks > options.maxBlocks) throw new StudioError('invalid-argument', `kvCache.initialBlocks (${options.initialBlocks}) must not exceed kvCache.maxBlocks (${options.maxBlocks})`, { field: 'kvCache.initialBlocks' });
    for (let i = 0; i < options.initialBlocks; i++) this.freeBlocks.push(this.newBlock());
  }

  /** Positions stored for a sequence (0 when it has none). */
  numPositions(sequenceId: number): number {
    return this.tables.get(sequenceId)?.numPositions ?? 0;
  }

  has(sequenceId: number): boolean {
    return this.tables.has(sequenceId);
  }

  release(sequenceId: number): void {
    const table = this.tables.get(sequenceId);
    if (!table) return;
    this.tables.delete(sequenceId);
    for (const block of table.blocks) this.freeBlocks.push(block);
  }

  stats(): KvPoolStats {
    return {
      numBlocksAllocated: this.blocks.length,
      numBlocksFree: this.freeBlocks.length,
      maxBlocks: this.options.maxBlocks,
      numSequences: this.tables.size,
      numStagingElements: this.staging.reduce((n, s) => n + s.length, 0),
    };
  }

  /**
   * Per layer [keys, values] views [rows.length, KVH, capacity, D] holding each row's stored
   * positions and zeros after them. The views are reused by the next stage() call.
   */
  stage(sequenceIds: readonly number[], capacity: number): ActivationData[] {
    const d = this.dims;
    const size = stagedElements(d, sequenceIds.length, capacity);
    if (this.staging.length === 0 || this.staging[0].length < size) this.staging = Array.from({ length: d.numLayers * 2 }, () => this.newArray(size));
    const views = this.staging.map((s) => s.subarray(0, size) as ActivationData);
    const rowStride = d.numKvHeads * capacity * d.headDim;
    sequenceIds.forEach((id, b) => {
      const table = this.tables.get(id);
      const numPositions = table?.numPositions ?? 0;
      if (numPositions > capacity) throw new StudioError('internal', `sequence ${id} holds ${numPositions} KV positions, more than the staged capacity ${capacity}`);
      for (let layer = 0; layer < d.numLayers; layer++) {
        for (const which of [0, 1] as const) {
          const view = views[layer * 2 + which];
          for (let h = 0; h < d.numKvHeads; h++) {
            const rowStart = b * rowStride + h * capacity * d.headDim;
            for (let j = 0; table && j * d.blockPositions < numPositions; j++) {
              const count = Math.min(d.blockPositions, numPositions - j * d.blockPositions);
              const from = blockOffset(d, layer, which, h, 0);
              view.set(this.blocks[table.blocks[j]].subarray(from, from + count * d.headDim) as never, rowStart + j * d.blockPositions * d.headDim);
            }
            view.fill(0, rowStart + numPositions * d.headDim, rowStart + capacity * d.headDim);
          }
        }
      }
    });
    return views;
  }

  /** Copies of a sequence's positions [0, numPositions): per layer [keys, values], each [numKvHeads, numPositions, headDim]. */
  read(sequenceId: number, numPositions: number): ActivationData[] {
    const d = this.dims;
    const table = this.tables.get(sequenceId);
    const numStored = table?.numPositions ?? 0;
    if (!table || numStored < numPositions) throw new StudioError('internal', `sequence ${sequenceId} holds ${numStored} KV positions; ${numPositions} were asked for`);
    return Array.from({ length: d.numLayers * 2 }, (_, i) => {
      const [layer, which] = [Math.floor(i / 2), (i % 2) as 0 | 1];
      const out = this.newArray(d.numKvHeads * numPositions * d.headDim);
      for (let h = 0; h < d.numKvHeads; h++) {
        for (let j = 0; j * d.blockPositions < numPositions; j++) {
          const count = Math.min(d.blockPositions, numPositions - j * d.blockPositions);
          const from = blockOffset(d, layer, which, h, 0);
          out.set(this.blocks[table.blocks[j]].subarray(from, from + count * d.headDim) as never, (h * numPositions + j * d.blockPositions) * d.headDim);
        }
      }
      return out;
    });
  }

  /**
   * Stores positions [from, to) of row `row` of per-layer [keys, values] arrays laid out
   * [rows, KVH, capacity, D] (slot p − firstSlot holds position p), growing the sequence's block table as needed.
   */
  write(sequenceId: number, present: readonly ArrayLike<number>[], row: number, capacity: number, from: number, to: number, firstSlot = 0): void {
    const d = this.dims;
    const table = this.tables.get(sequenceId) ?? { blocks: [], numPositions: 0 };
    this.tables.set(sequenceId, table);
    if (from !== table.numPositions) throw new StudioError('internal', `sequence ${sequenceId} writes KV from position ${from} but holds ${table.numPositions}`);
    while (table.blocks.length * d.blockPositions < to) table.blocks.push(this.takeBlock());
    const rowStride = d.numKvHeads * capacity * d.headDim;
    for (let layer = 0; layer < d.numLayers; layer++) {
      for (const which of [0, 1] as const) {
        const src = present[layer * 2 + which] as ActivationData;
        for (let h = 0; h < d.numKvHeads; h++) {
          for (let p = from; p < to; p++) {
            const block = this.blocks[table.blocks[Math.floor(p / d.blockPositions)]];
            const start = row * rowStride + (h * capacity + p - firstSlot) * d.headDim;
            block.set(src.subarray(start, start + d.headDim) as never, blockOffset(d, layer, which, h, p % d.blockPositions));
          }
        }
      }
    }
    table.numPositions = to;
  }

  private takeBlock(): number {
    const free = this.freeBlocks.pop();
    if (free !== undefined) return free;
    if (this.blocks.length >= this.options.maxBlocks) {
      throw new StudioError('out-of-memory', `the KV pool is full (${this.options.maxBlocks} blocks of ${this.dims.blockPositions} positions); wait for running requests, shorten the text or raise kvCache.maxBlocks`, { maxBlocks: this.options.maxBlocks });
    }
    return this.newBlock();
  }

  private newBlock(): number {
    this.blocks.push(this.newArray(blockElements(this.dims)));
    return this.blocks.length - 1;
  }

  private newArray(size: number): ActivationData {
    return this.options.dtype === 'float16' ? new Uint16Array(size) : new Float32Array(size);
  }
}
