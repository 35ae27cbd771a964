/**
 * The engine host's <audio> inserts across requests: the files are read and bounded on the host
 * (audio-inserts.ts), the request's decoded samples admitted by a global budget with fair client
 * shares (insert-budget.ts), each file decoded and resampled once per content (insert-cache.ts) on
 * worker threads (insert-workers.ts), and the turns of a request with inserts joined there too, so
 * the host's event loop (heartbeats, engine steps, cancels) never runs O(audio) insert work.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import type { HostSynthesisRequest } from '../engine-protocol/protocol';
import type { SsmlSegment } from '../ssml/segments';
import { loadAudioInserts, type AdmittedInserts, type AudioInsertPolicy, type LoadedInserts } from './audio-inserts';
import { InsertBudget } from './insert-budget';
import { InsertCache, insertCacheKey } from './insert-cache';
import { InsertWorkers } from './insert-workers';
import type { JoinedAudio } from './join-turns';
import type { TurnPlan } from './turn-plan';

/** The client of a request without one (the host's own callers, tools): all such requests share one share. */
export const ANONYMOUS_CLIENT = 'anonymous';

export class InsertService {
  readonly budget: InsertBudget;
  readonly cache: InsertCache;
  private readonly workers: InsertWorkers;

  constructor(
    private readonly policy: Readonly<AudioInsertPolicy>,
    private readonly log: (m: string) => void = () => {},
    workers?: InsertWorkers,
  ) {
    this.budget = new InsertBudget(policy);
    this.cache = new InsertCache(policy.cacheMaxBytes);
    this.workers = workers ?? new InsertWorkers(policy.numWorkers, log);
  }

  /**
   * Reads, bounds, admits and decodes the <audio> files of a request of `clientId` (audio-inserts.ts).
   * Waits for room in the budget or rejects 'busy' with retryAfterS; `signal` (a cancel) ends the wait.
   */
  load(clientId: HostSynthesisRequest['clientId'], segments: readonly SsmlSegment[], signal?: AbortSignal): Promise<AdmittedInserts> {
    return loadAudioInserts(segments, this.policy, this.log, {
      admit: (numSamples) => this.budget.acquire(clientId ?? ANONYMOUS_CLIENT, numSamples, signal),
      decode: async (src, bytes, layout, outputSampleRateHz) => {
        const key = await insertCacheKey(bytes, outputSampleRateHz);
        // the file's bytes move to the worker: not used here after this
        return this.cache.get(key, () => this.workers.run({ kind: 'decode', src, bytes, layout, outputSampleRateHz }, transferable(bytes)));
      },
    });
  }

  /** Joins a request's turns with its inserts (join-turns.ts) on a worker; the turns' PCM is copied there. */
  join(request: SynthesisRequest, plan: TurnPlan, turns: SynthesisResult[], inserts: LoadedInserts): Promise<JoinedAudio> {
    return this.workers.run({ kind: 'join', request, plan, turns, inserts: { audio: inserts.audio, warnings: inserts.warnings } });
  }

  /** Budget, cache and workers now: for the host log and tests. */
  usage(): { numSamplesHeld: number; numWaiting: number; numCacheEntries: number; numCacheBytes: number; numDecodes: number; numWorkers: number } {
    const budget = this.budget.usage();
    const cache = this.cache.usage();
    return { numSamplesHeld: budget.numSamplesHeld, numWaiting: budget.numWaiting, numCacheEntries: cache.numEntries, numCacheBytes: cache.numBytesHeld, numDecodes: this.cache.numDecodes, numWorkers: this.workers.numStarted() };
  }

  dispose(): Promise<void> {
    return this.workers.dispose();
  }
}

/**
 * The bytes' buffer when it holds nothing else (a file read into its own buffer, perhaps with the
 * read's one-byte probe after it: audio-inserts.ts), so it moves instead of being copied; else none.
 */
function transferable(bytes: Uint8Array): ArrayBuffer[] {
  const buffer = bytes.buffer;
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && buffer.byteLength - bytes.byteLength <= 1 ? [buffer] : [];
}
