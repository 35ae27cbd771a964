/**
 * KV pool bookkeeping in blocks: a sequence reserves blocks for its whole budget (prompt + frame
 * cap) when admitted and frees them when it leaves, so a running sequence never runs out and the
 * pool never grows. Counts only: where a sequence's positions live is the engine's KV pool's own
 * block table (engine/kv/). Pure.
 */
import { StudioError } from '../../src-shared/errors';

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
      throw new StudioError('out-of-memory', `sequence needs ${needed} KV blocks but ${this.numFreeBlocks} of ${this.numBlocks} are free; wait for running requests or raise kvCapacityTokens`);
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
