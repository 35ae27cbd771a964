/**
 * Waiting sequences in admission order: interactive before bulk, FIFO within a class, and aging —
 * a bulk sequence that has waited agingMs is ordered with the interactive ones, by arrival.
 * Pure; the clock value is passed in.
 */
import type { RequestPriority } from '../../src-shared/synthesis';

export interface QueuedSequence {
  id: string;
  priority: RequestPriority;
  arrivalMs: number;
  /** Monotonic tie-breaker: submission order. */
  ordinal: number;
}

export class RequestQueue<T extends QueuedSequence> {
  private items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  has(id: string): boolean {
    return this.items.some((s) => s.id === id);
  }

  some(predicate: (item: T) => boolean): boolean {
    return this.items.some(predicate);
  }

  push(item: T): void {
    this.items.push(item);
  }

  remove(id: string): T | null {
    const i = this.items.findIndex((s) => s.id === id);
    if (i < 0) return null;
    return this.items.splice(i, 1)[0];
  }

  /** Removes and returns every item matching the predicate. */
  removeWhere(predicate: (item: T) => boolean): T[] {
    const removed = this.items.filter(predicate);
    if (removed.length > 0) this.items = this.items.filter((s) => !predicate(s));
    return removed;
  }

  oldestArrivalMs(): number | null {
    // a loop, not Math.min(...items): a spread of a queue-sized array can overflow the stack
    return this.items.length === 0 ? null : this.items.reduce((min, s) => Math.min(min, s.arrivalMs), Infinity);
  }

  /** Items in admission order at time nowMs. */
  ordered(nowMs: number, agingMs: number): T[] {
    const rank = (s: T) => (s.priority === 'interactive' || nowMs - s.arrivalMs >= agingMs ? 0 : 1);
    return [...this.items].sort((a, b) => rank(a) - rank(b) || a.ordinal - b.ordinal);
  }

  /** Position (0-based) of each waiting id in admission order. */
  positions(nowMs: number, agingMs: number): Map<string, number> {
    return new Map(this.ordered(nowMs, agingMs).map((s, i) => [s.id, i]));
  }
}
