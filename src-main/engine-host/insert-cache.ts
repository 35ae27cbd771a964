/**
 * Decoded <audio> inserts of the engine host by content: the SHA-256 of the file's bytes and the
 * output rate name one decoded PCM, so one clip inserted 42 times, by 20 requests or under
 * different srcs, decodes once. Least recently used entries go first once the cache holds more than
 * maxBytes; concurrent asks for one key share one decode. Cached PCM is shared: never written to.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import { webcrypto } from 'node:crypto';

export interface CachedPcm {
  /** Samples at the output rate; shared by every request that inserts it (read only). */
  pcm: Float32Array;
  sampleRateHz: number;
}

/** The cache key of a file's bytes at an output rate; SHA-256 runs on libuv's thread pool, not on the event loop. */
export async function insertCacheKey(bytes: Uint8Array, outputSampleRateHz: number): Promise<string> {
  const digest = new Uint8Array(await webcrypto.subtle.digest('SHA-256', bytes));
  return `${Buffer.from(digest).toString('hex')}@${outputSampleRateHz}`;
}

export class InsertCache {
  private readonly entries = new Map<string, CachedPcm>();
  private readonly decoding = new Map<string, Promise<CachedPcm>>();
  private numBytesHeld = 0;
  /** Decodes started (misses), for status and tests. */
  numDecodes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The cached PCM of `key`, else the one `decode` makes (shared with every concurrent ask for the key). */
  async get(key: string, decode: () => Promise<CachedPcm>): Promise<CachedPcm> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key); // re-inserted: Map order is the recency order
      this.entries.set(key, hit);
      return hit;
    }
    const pending = this.decoding.get(key);
    if (pending) return pending;
    this.numDecodes++;
    const started = decode().then((decoded) => {
      this.add(key, decoded);
      return decoded;
    });
    this.decoding.set(key, started);
    try {
      return await started;
    } finally {
      this.decoding.delete(key);
    }
  }

  usage(): { numEntries: number; numBytesHeld: number } {
    return { numEntries: this.entries.size, numBytesHeld: this.numBytesHeld };
  }

  private add(key: string, decoded: CachedPcm): void {
    const numBytes = decoded.pcm.byteLength;
    if (numBytes > this.maxBytes) return; // too large to keep: the caller still gets it
    this.entries.set(key, decoded);
    this.numBytesHeld += numBytes;
    for (const [oldKey, old] of this.entries) {
      if (this.numBytesHeld <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.numBytesHeld -= old.pcm.byteLength;
    }
  }
}
