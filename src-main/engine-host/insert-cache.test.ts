/**
 * Decoded <audio> inserts by content: one key decodes once however many ask at once, the least
 * recently used entries leave first once the cache holds more than its bytes, an entry larger than
 * the whole cache is handed out but not kept, and a failed decode is not cached. Issue 43 (N1).
 */
import { describe, expect, it } from 'vitest';
import { InsertCache, insertCacheKey } from './insert-cache';

const pcmOf = (numSamples: number) => ({ pcm: new Float32Array(numSamples), sampleRateHz: 24_000 });

describe('InsertCache', () => {
  it('decodes a key once for concurrent and later asks', async () => {
    const cache = new InsertCache(1 << 20);
    let numCalls = 0;
    const decode = async () => (numCalls++, pcmOf(100));
    const [a, b] = await Promise.all([cache.get('k', decode), cache.get('k', decode)]);
    const c = await cache.get('k', decode);
    expect(numCalls).toBe(1);
    expect(cache.numDecodes).toBe(1);
    expect(b).toBe(a);
    expect(c).toBe(a);
  });

  it('drops the least recently used entries past maxBytes, and keeps none larger than the cache', async () => {
    const cache = new InsertCache(1000); // 250 float32 samples
    await cache.get('a', async () => pcmOf(100));
    await cache.get('b', async () => pcmOf(100));
    await cache.get('a', async () => pcmOf(100)); // a is now the most recent
    await cache.get('c', async () => pcmOf(100)); // 1,200 bytes: b leaves
    expect(cache.usage()).toEqual({ numEntries: 2, numBytesHeld: 800 });
    await cache.get('a', async () => pcmOf(100));
    expect(cache.numDecodes).toBe(3);
    await cache.get('b', async () => pcmOf(100));
    expect(cache.numDecodes).toBe(4);
    const huge = await cache.get('huge', async () => pcmOf(1000));
    expect(huge.pcm.length).toBe(1000);
    expect(cache.usage().numBytesHeld).toBeLessThanOrEqual(1000);
  });

  it('does not cache a failed decode', async () => {
    const cache = new InsertCache(1 << 20);
    await expect(cache.get('k', async () => { throw new Error('broken'); })).rejects.toThrow('broken');
    expect((await cache.get('k', async () => pcmOf(3))).pcm.length).toBe(3);
    expect(cache.numDecodes).toBe(2);
  });

  it('keys by the bytes and the output rate, not by the file name', async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(await insertCacheKey(bytes.slice(), 24_000)).toBe(await insertCacheKey(bytes, 24_000));
    expect(await insertCacheKey(bytes, 24_000)).not.toBe(await insertCacheKey(bytes, 16_000));
    expect(await insertCacheKey(new Uint8Array([1, 2, 4]), 24_000)).not.toBe(await insertCacheKey(bytes, 24_000));
  });
});
