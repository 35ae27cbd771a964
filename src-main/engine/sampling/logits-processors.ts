/**
 * Logits processors and warpers for one row of logits, in place, in the order of HF `generate`
 * as pinned by the official code (spec §3.2): repetition penalty → min-new-tokens EOS block →
 * control-id suppression → temperature → top-k → top-p. Pure functions over Float32Array; the
 * sampler composes them, the engine never calls them directly.
 */

/** Sign-aware penalty over the *set* of past tokens: once per distinct id (HF RepetitionPenaltyLogitsProcessor). */
export function applyRepetitionPenalty(logits: Float32Array, pastTokens: Iterable<number>, penalty: number): void {
  if (penalty === 1) return;
  for (const id of new Set(pastTokens)) {
    const value = logits[id];
    logits[id] = value < 0 ? value * penalty : value / penalty;
  }
}

/** EOS → −∞ while fewer than `minNewTokens` tokens have been generated (HF MinNewTokensLengthLogitsProcessor). */
export function applyMinNewTokens(logits: Float32Array, numGenerated: number, minNewTokens: number, eosId: number): void {
  if (numGenerated < minNewTokens) logits[eosId] = -Infinity;
}

/** Ids in [startId, endId) → −∞ except those in `keepIds` (the codec control range, keeping EOS). */
export function applySuppressRange(logits: Float32Array, startId: number, endId: number, keepIds: readonly number[]): void {
  const stop = Math.min(endId, logits.length);
  for (let id = startId; id < stop; id++) if (!keepIds.includes(id)) logits[id] = -Infinity;
}

export function applyTemperature(logits: Float32Array, temperature: number): void {
  if (temperature === 1) return;
  for (let i = 0; i < logits.length; i++) logits[i] = logits[i] / temperature;
}

/** Keeps logits ≥ the k-th largest (ties kept, as HF's `scores < topk[-1]` rule); k ≤ 0 disables. */
export function applyTopK(logits: Float32Array, topK: number): void {
  if (topK <= 0 || topK >= logits.length) return;
  const kth = kthLargest(logits, topK);
  for (let i = 0; i < logits.length; i++) if (logits[i] < kth) logits[i] = -Infinity;
}

/**
 * The k-th largest value, duplicates counted (1 ≤ k ≤ length), in one pass with a min-heap of the k
 * largest seen: O(n log k) and no sort of the whole row. A NaN (a broken model) takes the sorting
 * path, where NaN ranks above every number.
 */
export function kthLargest(values: Float32Array, k: number): number {
  const heap = new Float32Array(k);
  let size = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== v) return kthLargestBySort(values, k);
    if (size < k) {
      let at = size++;
      while (at > 0 && heap[(at - 1) >> 1] > v) {
        heap[at] = heap[(at - 1) >> 1];
        at = (at - 1) >> 1;
      }
      heap[at] = v;
    } else if (v > heap[0]) {
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= k) break;
        const child = left + 1 < k && heap[left + 1] < heap[left] ? left + 1 : left;
        if (heap[child] >= v) break;
        heap[at] = heap[child];
        at = child;
      }
      heap[at] = v;
    }
  }
  return heap[0];
}

/** The k-th largest by sorting a copy (the slow obvious reference; NaN sorts above every number). */
export function kthLargestBySort(values: Float32Array, k: number): number {
  return Float32Array.from(values).sort().reverse()[k - 1];
}

/**
 * Nucleus filter as HF TopPLogitsWarper: sort ascending, drop the tokens whose cumulative
 * probability is ≤ 1 − topP, always keep the most likely one. topP ≥ 1 disables.
 */
export function applyTopP(logits: Float32Array, topP: number): void {
  if (topP >= 1) return;
  const order = Array.from(logits.keys()).sort((a, b) => logits[a] - logits[b] || b - a);
  const probs = softmax(logits);
  let cumulative = 0;
  for (let rank = 0; rank < order.length - 1; rank++) {
    cumulative += probs[order[rank]];
    if (cumulative <= 1 - topP) logits[order[rank]] = -Infinity;
  }
}

/** Softmax in float64 over finite logits; −∞ entries get probability 0. */
export function softmax(logits: Float32Array): Float64Array {
  let max = -Infinity;
  for (const v of logits) if (v > max) max = v;
  const out = new Float64Array(logits.length);
  if (max === -Infinity) return out;
  let sum = 0;
  for (let i = 0; i < logits.length; i++) {
    const e = logits[i] === -Infinity ? 0 : Math.exp(logits[i] - max);
    out[i] = e;
    sum += e;
  }
  for (let i = 0; i < out.length; i++) out[i] /= sum;
  return out;
}
