/**
 * KV pool bookkeeping in blocks: a sequence reserves blocks for its whole budget (prompt + frame
 * cap) when admitted and frees them when it leaves, so a running sequence never runs out and the
 * pool never grows. Pure; the engine's KV store maps these block ids to memory.
 */
import { StudioError } from '../../src-shared/errors';

export class KvBudget {
  private readonly freeBlocks: number[] = [];
  private readonly owned = new Map<string, number[]>();

  constructor(
    readonly numBlocks: number,
    readonly blockTokens: number,
  ) {
    for (let i = numBlocks - 1; i >= 0; i--) this.freeBlocks.push(i);
  }

  blocksFor(numTokens: number): number {
    return Math.ceil(numTokens / this.blockTokens);
  }

  canAllocate(numTokens: number): boolean {
    return this.blocksFor(numTokens) <= this.freeBlocks.length;
  }

  /** Reserves blocks for a sequence; returns its block table. */
  allocate(sequenceId: string, numTokens: number): readonly number[] {
    if (this.owned.has(sequenceId)) throw new StudioError('internal', `sequence ${sequenceId} already holds KV blocks`);
    const needed = this.blocksFor(numTokens);
    if (needed > this.freeBlocks.length) {
      throw new StudioError('out-of-memory', `sequence needs ${needed} KV blocks but ${this.freeBlocks.length} of ${this.numBlocks} are free; wait for running requests or raise kvCapacityTokens`);
    }
    const table = this.freeBlocks.splice(this.freeBlocks.length - needed, needed).reverse();
    this.owned.set(sequenceId, table);
    return table;
  }

  free(sequenceId: string): void {
    const table = this.owned.get(sequenceId);
    if (!table) return;
    this.owned.delete(sequenceId);
    for (let i = table.length - 1; i >= 0; i--) this.freeBlocks.push(table[i]);
  }

  get numFreeBlocks(): number {
    return this.freeBlocks.length;
  }

  get numOwners(): number {
    return this.owned.size;
  }
}
