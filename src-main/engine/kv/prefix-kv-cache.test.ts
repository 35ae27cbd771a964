// The prompt-prefix KV cache alone: LRU eviction within its byte budget, hit and miss counters, and
// a key that changes with each part of a prefix (model id, text id, codec id, x-vector, reference frame).
import { describe, expect, it } from 'vitest';
import type { PromptRow } from '../prompt';
import { PrefixKvCache, prefixKvKey, type PrefixKv } from './prefix-kv-cache';

/** An entry of `numValues` float32 values in one array: 4 bytes each. */
const entry = (numValues: number, fill = 1): PrefixKv => ({ numPositions: 1, data: [new Float32Array(numValues).fill(fill)] });

describe('prompt-prefix KV cache', () => {
  it('evicts the least recently used entries to stay within its byte budget', () => {
    const cache = new PrefixKvCache(100);
    // 10 values × 4 bytes = 40 bytes each: two fit in 100, a third evicts one
    expect(cache.set('a', entry(10))).toBe(true);
    expect(cache.set('b', entry(10))).toBe(true);
    expect(cache.get('a')?.data[0][0]).toBe(1); // 'a' is now the most recently used
    expect(cache.set('c', entry(10))).toBe(true);
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
    expect(cache.stats()).toEqual({ numHits: 1, numMisses: 0, numEntries: 2, numBytes: 80, maxBytes: 100, numEvictions: 1 });
    // one of 100 bytes evicts both
    expect(cache.set('d', entry(25))).toBe(true);
    expect(cache.stats()).toMatchObject({ numEntries: 1, numBytes: 100, numEvictions: 3 });
  });

  it('keeps nothing larger than its budget, and nothing at all with a budget of 0', () => {
    const cache = new PrefixKvCache(100);
    cache.set('a', entry(10));
    expect(cache.set('big', entry(26))).toBe(false); // 104 bytes > 100
    expect([cache.has('big'), cache.has('a')]).toEqual([false, true]);
    const none = new PrefixKvCache(0);
    expect(none.set('a', entry(1))).toBe(false);
    expect(none.get('a')).toBeUndefined();
    expect(none.stats()).toMatchObject({ numHits: 0, numMisses: 1, numEntries: 0, numBytes: 0 });
  });

  it('replaces an entry set again under its key without counting its bytes twice', () => {
    const cache = new PrefixKvCache(100);
    cache.set('a', entry(10, 1));
    cache.set('a', entry(20, 2));
    expect(cache.stats()).toMatchObject({ numEntries: 1, numBytes: 80, numEvictions: 0 });
    expect(cache.get('a')?.data[0][0]).toBe(2);
  });

  it('counts hits and misses, and clear() empties it but keeps the counters', () => {
    const cache = new PrefixKvCache(1000);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', entry(10));
    cache.get('a');
    cache.get('a');
    cache.clear();
    expect(cache.get('a')).toBeUndefined();
    expect(cache.stats()).toEqual({ numHits: 2, numMisses: 2, numEntries: 0, numBytes: 0, maxBytes: 1000, numEvictions: 0 });
  });

  it('keys a prefix by the model id and every input of every row', () => {
    const rows: PromptRow[] = [
      { textId: 5, codecId: null },
      { textId: 7, codecId: 3, codecVector: Float32Array.of(0.5, -1, 2) },
      { textId: 9, codecId: null, codecFrame: [1, 2, 3] },
    ];
    const base = prefixKvKey('model-1', rows);
    expect(prefixKvKey('model-1', rows.map((r) => ({ ...r })))).toBe(base);
    const variants: [string, PromptRow[]][] = [
      ['another model', rows],
      ['model-1', [{ ...rows[0], textId: 6 }, rows[1], rows[2]]],
      ['model-1', [{ ...rows[0], codecId: 0 }, rows[1], rows[2]]],
      ['model-1', [rows[0], { ...rows[1], codecVector: Float32Array.of(0.5, -1, 2.0000002) }, rows[2]]],
      ['model-1', [rows[0], { ...rows[1], codecVector: undefined }, rows[2]]],
      ['model-1', [rows[0], rows[1], { ...rows[2], codecFrame: [1, 2, 4] }]],
      ['model-1', [rows[0], rows[1], { ...rows[2], codecFrame: [12, 3] }]],
      ['model-1', rows.slice(0, 2)],
    ];
    const keys = variants.map(([model, r]) => prefixKvKey(model, r));
    expect(keys.every((k) => k !== base)).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
