/**
 * Who is admitted this step: a small replaceable policy object (the lead's scheduler replaces it).
 * The default is FIFO by arrival, up to maxPrefillSequences per step and maxRunningSequences in all.
 * Pure: it sees sequence summaries, never tensors.
 */
import type { Sequence } from './sequence';

export interface AdmissionPolicy {
  /** Returns the waiting sequences to prefill now, in the order to run them. */
  admit(waiting: readonly Sequence[], running: readonly Sequence[]): Sequence[];
}

export function createFifoAdmissionPolicy(limits: { maxRunningSequences: number; maxPrefillSequences: number }): AdmissionPolicy {
  return {
    admit(waiting, running) {
      const numFree = Math.max(0, limits.maxRunningSequences - running.length);
      return [...waiting].sort((a, b) => a.id - b.id).slice(0, Math.min(numFree, limits.maxPrefillSequences));
    },
  };
}
