/**
 * The prompt-prefix KV cache: the talker's KV of a prompt's text-independent leading rows
 * (prompt.ts numPrefixRows), kept by key so a repeated voice skips that part of its prefill. LRU
 * within a byte budget. A key hashes the model id and every input of those rows (text and codec ids,
 * x-vector bytes, reference frames), so whatever changes their KV changes the key. Host arrays and
 * bookkeeping only; prefix-prefill.ts moves entries in and out of the talker.
 */
import type { EnginePrefixCache } from '../../../src-shared/synthesis';
import { createHash } from 'node:crypto';
import type { ActivationData } from '../stages/activations';
import type { PromptRow } from '../prompt';

/** One sequence's first numPositions KV positions: per layer [keys, values], each [numKvHeads, numPositions, headDim]. */
export interface PrefixKv {
  numPositions: number;
  data: ActivationData[];
}

/** The counters engine status reports (one shape, shared with the status the host sends). */
export type PrefixKvCacheStats = EnginePrefixCache;

export const prefixKvBytes = (kv: PrefixKv): number => kv.data.reduce((n, a) => n + a.byteLength, 0);

/**
 * The cache key of a prompt prefix: sha256 over the model id and each row's inputs, every field tagged
 * and length-delimited so no two different row lists serialise alike.
 */
export function prefixKvKey(modelId: string, rows: readonly PromptRow[]): string {
  const hash = createHash('sha256');
  hash.update(`model:${modelId.length}:${modelId};rows:${rows.length};`);
  for (const row of rows) {
    hash.update(`t${row.textId ?? 'n'}c${row.codecId ?? 'n'}`);
    const v = row.codecVector;
    if (v) {
      hash.update(`v${v.length}:`);
      hash.update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
    }
    if (row.codecFrame) hash.update(`f${row.codecFrame.length}:${row.codecFrame.join(',')}`);
    hash.update(';');
  }
  return hash.digest('hex');
}

export class PrefixKvCache {
  /** Map order is recency: the first entry is the least recently used. */
  private readonly entries = new Map<string, { kv: PrefixKv; numBytes: number }>();
  private readonly counts = { numHits: 0, numMisses: 0, numEvictions: 0 };
  private numBytes = 0;

  constructor(readonly maxBytes: number) {}

  /** The entry of `key` (now the most recently used), counted as a hit, or undefined, counted as a miss. */
  get(key: string): PrefixKv | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.counts.numMisses++;
      return undefined;
    }
    this.counts.numHits++;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.kv;
  }

  /** Keeps `kv` under `key`, evicting the least recently used entries to fit; false (nothing kept) when it alone exceeds maxBytes. */
  set(key: string, kv: PrefixKv): boolean {
    const numBytes = prefixKvBytes(kv);
    this.remove(key);
    if (numBytes > this.maxBytes) return false;
    for (const [oldKey] of this.entries) {
      if (this.numBytes + numBytes <= this.maxBytes) break;
      this.remove(oldKey);
      this.counts.numEvictions++;
    }
    this.entries.set(key, { kv, numBytes });
    this.numBytes += numBytes;
    return true;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Drops every entry (the model changed, or the engine is disposed); the counters stay. */
  clear(): void {
    this.entries.clear();
    this.numBytes = 0;
  }

  stats(): PrefixKvCacheStats {
    return { ...this.counts, numEntries: this.entries.size, numBytes: this.numBytes, maxBytes: this.maxBytes };
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.numBytes -= entry.numBytes;
  }
}
