/**
 * KV pool bookkeeping in blocks: a sequence reserves blocks for its whole budget (prompt + frame
 * cap) when admitted and frees them when it leaves, so a running sequence never runs out and the
 * pool never grows. Counts only: where a sequence's positions live is the engine's KV pool's own
 * block table (engine/kv/), whose size (KvSize) the engine hands the scheduler, so admission and the
 * pool count the same blocks. Pure.
 */
import { StudioError } from '../../src-shared/errors';

/** The size of the engine's KV pool: whole blocks of blockTokens positions (engine/kv/kv-capacity.ts sizes it). */
export interface KvSize {
  numBlocks: number;
  blockTokens: number;
}

/** No KV bound (an engine built without a pool size: unit tests over fake stages). */
export const UNBOUNDED_KV: Readonly<KvSize> = Object.freeze({ numBlocks: Infinity, blockTokens: 1 });

export class KvBudget {
  private readonly owned = new Map<string, number>();
  private numUsedBlocks = 0;

  constructor(
    readonly numBlocks: number,
    readonly blockTokens: number,
  ) {}

  blocksFor(numTokens: number): number {
    return Math.ceil(numTokens / this.blockTokens);
  }

  canAllocate(numTokens: number): boolean {
    return this.blocksFor(numTokens) <= this.numFreeBlocks;
  }

  /** Reserves blocks for a sequence's whole budget. */
  allocate(sequenceId: string, numTokens: number): void {
    if (this.owned.has(sequenceId)) throw new StudioError('internal', `sequence ${sequenceId} already holds KV blocks`);
    const needed = this.blocksFor(numTokens);
    if (needed > this.numFreeBlocks) {
      throw new StudioError('out-of-memory', `sequence needs ${needed} KV blocks but ${this.numFreeBlocks} of ${this.numBlocks} are free; wait for running requests or raise engine.kvCache.maxBlocks`);
    }
    this.owned.set(sequenceId, needed);
    this.numUsedBlocks += needed;
  }

  free(sequenceId: string): void {
    const numBlocks = this.owned.get(sequenceId);
    if (numBlocks === undefined) return;
    this.owned.delete(sequenceId);
    this.numUsedBlocks -= numBlocks;
  }

  get numFreeBlocks(): number {
    return this.numBlocks - this.numUsedBlocks;
  }

  get numOwners(): number {
    return this.owned.size;
  }
}
