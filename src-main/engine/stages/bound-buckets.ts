/**
 * What every bound stage shares (BoundRuns, BoundTalkerDecode, BoundCodecStream: the IoBinding siblings
 * of the plain stages): the setup it opens with, its step sessions (graph-sessions.ts) and copy sessions,
 * the LRU of shape buckets with their gpu_graph_ids (never reused: a captured graph keeps its addresses),
 * run counts, and disposal. Each stage owns only its buckets' buffers and what it writes into them.
 */
import type { BufferLocation } from '../runtime/runtime';
import { FIRST_GPU_GRAPH_ID, GraphSessions, openBindable, type BindableSession, type OpenSession } from './graph-sessions';

/** How a bound stage opens: the engine's createSession, the step sessions' capture options, where buffers live, the bucket limit. */
export interface BoundSetup {
  open: OpenSession;
  /** Provider options of the step sessions ({}: uncaptured). */
  captureOptions: Record<string, string>;
  location: BufferLocation;
  /** Buckets with buffers held at once; the least recently used is released past this. */
  maxBuckets: number;
  /** Each graph id runs in a session of its own (engine-plan.ts capturePerGraph). */
  perGraph?: boolean;
  /** Each bucket runs in a session of its own, all its graph ids in it (engine-plan.ts sessionPerBucket); perGraph wins where both are set. */
  perBucket?: boolean;
}

/** The native runs of a bound stage: inputs in, the step itself, outputs out, state staged from the host record. */
export type BoundRunKind = 'upload' | 'step' | 'download' | 'stage';

export interface BoundBucketStats {
  numRuns: number;
  /** Wall milliseconds spent in each kind of run (where a bound step's time goes). */
  msInRuns: Record<BoundRunKind, number>;
  /** Host bytes each kind of run copied in or out (0 for the step itself): what crosses between host and device. */
  bytesInRuns: Record<BoundRunKind, number>;
  /** Runs whose state buffers were first staged from the host record (other rows or lengths in the bucket; 0 in stages without state). */
  numRunsStaged: number;
  numBuckets: number;
  /** gpu_graph_id values handed out (never reused). */
  numGraphIds: number;
  /** Step sessions open (1, or one per graph id where the provider keeps one captured graph per session). */
  numSessions: number;
}

export class BoundBuckets<B, K extends string> {
  private readonly buckets = new Map<string, B>();
  private nextGraphId = FIRST_GPU_GRAPH_ID;
  private numRuns = 0;
  private numRunsStaged = 0;
  private readonly msInRuns: Record<BoundRunKind, number> = { upload: 0, step: 0, download: 0, stage: 0 };
  private readonly bytesInRuns: Record<BoundRunKind, number> = { upload: 0, step: 0, download: 0, stage: 0 };

  private constructor(
    private readonly steps: GraphSessions,
    /** The copy sessions (upload, download, staging): IoBinding, one thread each, never captured. */
    readonly copies: Record<K, BindableSession>,
    readonly location: BufferLocation,
    private readonly maxBuckets: number,
    /** Releases a bucket's bindings (copy bindings first: they bind the step bindings' buffers) and returns the sessions it ran in. */
    private readonly release: (bucket: B) => BindableSession[],
  ) {}

  /**
   * Opens the step sessions of `model` (with the capture options) and the copy graphs' sessions, in that
   * order; every one already open is released when a later one fails.
   */
  static async open<B, K extends string>(model: string, setup: BoundSetup, copyGraphs: Record<K, Uint8Array>, release: (bucket: B) => BindableSession[]): Promise<BoundBuckets<B, K>> {
    const steps = await GraphSessions.open(setup.open, model, setup.captureOptions, setup.perGraph ? 'graph' : setup.perBucket ? 'bucket' : 'shared');
    const opened: BindableSession[] = [];
    try {
      const copies = {} as Record<K, BindableSession>;
      for (const [name, graph] of Object.entries(copyGraphs) as [K, Uint8Array][]) {
        copies[name] = await openBindable(setup.open, graph, { intraOpNumThreads: 1 });
        opened.push(copies[name]);
      }
      return new BoundBuckets(steps, copies, setup.location, setup.maxBuckets, release);
    } catch (err) {
      for (const s of opened) await s.release();
      await steps.dispose();
      throw err;
    }
  }

  /** A new gpu_graph_id for a bucket's step binding. */
  graphId(): number {
    return this.nextGraphId++;
  }

  /** The open buckets, least recently used first. */
  openBuckets(): B[] {
    return [...this.buckets.values()];
  }

  /** The buckets that opening `key` would evict, in eviction order (none when it is open): a stage that must save their state first. */
  evictedBy(key: string): B[] {
    return this.buckets.has(key) ? [] : [...this.buckets.values()].slice(0, Math.max(0, this.buckets.size - this.maxBuckets + 1));
  }

  /** The bucket under `key`, opened in `graphsPerBucket` step sessions when absent (evicting the least recently used past the limit). */
  bucket(key: string, open: (...sessions: BindableSession[]) => B, graphsPerBucket = 1): Promise<B> {
    return lruEntryAsync(this.buckets, key, this.maxBuckets, this.steps, open, this.release, graphsPerBucket);
  }

  /** Awaits one native run, adding its wall time (and the host bytes it copies) to its kind's totals. */
  async timed<T>(kind: BoundRunKind, run: () => Promise<T>, numBytes = 0): Promise<T> {
    this.bytesInRuns[kind] += numBytes;
    const startedMs = performance.now();
    try {
      return await run();
    } finally {
      this.msInRuns[kind] += performance.now() - startedMs;
    }
  }

  /** Counts one run of a bucket. */
  ran(): void {
    this.numRuns++;
  }

  /** Counts one staging of a bucket's state buffers from the host record. */
  staged(): void {
    this.numRunsStaged++;
  }

  stats(): BoundBucketStats {
    return { numRuns: this.numRuns, msInRuns: { ...this.msInRuns }, bytesInRuns: { ...this.bytesInRuns }, numRunsStaged: this.numRunsStaged, numBuckets: this.buckets.size, numGraphIds: this.nextGraphId - FIRST_GPU_GRAPH_ID, numSessions: this.steps.numOpen };
  }

  async dispose(): Promise<void> {
    for (const b of this.buckets.values()) this.release(b);
    this.buckets.clear();
    for (const s of Object.values<BindableSession>(this.copies)) await s.release();
    await this.steps.dispose();
  }
}

/**
 * lruEntry for buckets whose graph ids need sessions (graph-sessions.ts): the sessions are taken before
 * the bucket opens (one per graph id the bucket has) and dropped after an evicted bucket's bindings
 * are released, which returns the sessions it ran in.
 */
export async function lruEntryAsync<T>(
  entries: Map<string, T>, key: string, max: number, sessions: GraphSessions,
  open: (...session: BindableSession[]) => T, release: (old: T) => BindableSession[], graphsPerBucket = 1,
): Promise<T> {
  const found = entries.get(key);
  if (found) return lruEntry(entries, key, max, () => found, () => undefined);
  const taken = await sessions.forBucket(graphsPerBucket);
  const raced = entries.get(key);
  if (raced) {
    for (const s of taken) await sessions.drop(s);
    return lruEntry(entries, key, max, () => raced, () => undefined);
  }
  const dropped: BindableSession[] = [];
  try {
    return lruEntry(entries, key, max, () => Reflect.apply(open, undefined, taken) as T, (old) => {
      for (const s of release(old)) dropped.push(s);
    });
  } catch (err) {
    for (const s of taken) await sessions.drop(s);
    throw err;
  } finally {
    for (const s of dropped) await sessions.drop(s);
  }
}

/** The entry under `key`, made most recently used; opened when absent, after releasing the least recently used past `max`. */
export function lruEntry<T>(entries: Map<string, T>, key: string, max: number, open: () => T, release: (old: T) => void): T {
  const found = entries.get(key);
  if (found) {
    entries.delete(key);
    entries.set(key, found);
    return found;
  }
  while (entries.size >= max) {
    const [oldestKey, oldest] = entries.entries().next().value as [string, T];
    release(oldest);
    entries.delete(oldestKey);
  }
  const opened = open();
  entries.set(key, opened);
  return opened;
}

/** The bytes of the host sides of these buffers or views (a device buffer without a host side counts 0). */
export function hostBytes(items: readonly unknown[]): number {
  let n = 0;
  for (const item of items) {
    const view = item && typeof item === 'object' && !ArrayBuffer.isView(item) ? (item as { host?: unknown }).host : item;
    if (ArrayBuffer.isView(view)) n += view.byteLength;
  }
  return n;
}
