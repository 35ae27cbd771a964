/**
 * The engine host's <audio> inserts across requests: the files are read and bounded on the host
 * (audio-inserts.ts), the request's decoded samples admitted by a global budget with fair client
 * shares (insert-budget.ts), each file decoded and resampled once per content (insert-cache.ts) on
 * worker threads (insert-workers.ts), and every recording longer than a moment joined there too, so
 * the host's event loop (heartbeats, engine steps, cancels) never runs O(audio) insert or join work.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import { formatCount } from '../../src-shared/format-count';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import type { HostSynthesisRequest } from '../engine-protocol/protocol';
import type { SsmlSegment } from '../ssml/segments';
import { loadAudioInserts, type AdmittedInserts, type AudioInsertPolicy, type LoadedInserts } from './audio-inserts';
import { InsertBudget } from './insert-budget';
import { InsertCache, insertCacheKey } from './insert-cache';
import { InsertWorkers } from './insert-workers';
import type { JoinedAudio } from './join-turns';
import type { TurnPlan } from './turn-plan';

/**
 * Samples of a recording (turns and inserts, at the output rate) up to which its join runs on the
 * host's loop: 2 s at 24 kHz, a few milliseconds of DSP, with no worker round trip and never queued
 * behind long decodes or joins. Anything longer is joined on a worker: loudness and true peak cost
 * seconds per minute of audio, which on the loop would hold heartbeats and engine steps.
 */
export const JOIN_ON_LOOP_MAX_SAMPLES = 48_000;

/** The client of a request without one (the host's own callers, tools): all such requests share one share. */
export const ANONYMOUS_CLIENT = 'anonymous';

export class InsertService {
  readonly budget: InsertBudget;
  readonly cache: InsertCache;
  private readonly workers: InsertWorkers;
  /** Joins sent to a worker, for tests. */
  private numJoins = 0;

  constructor(
    private readonly policy: Readonly<AudioInsertPolicy>,
    private readonly log: (m: string) => void = () => {},
    workers?: InsertWorkers,
  ) {
    this.budget = new InsertBudget(policy);
    this.cache = new InsertCache(policy.cacheMaxBytes);
    this.workers = workers ?? new InsertWorkers(policy.numWorkers, log);
    const mib = (n: number) => Math.round(n / (1024 * 1024));
    log(`<audio> inserts: ${formatCount(policy.maxDecodedSamples)} decoded samples per request, ${formatCount(policy.maxSamplesInFlight)} in flight for all (fair client shares, ${policy.maxWaitingPerClient} waiting per client for up to ${formatCount(policy.maxWaitMs)} ms, then busy with retryAfterS ${policy.retryAfterS}), ${mib(policy.cacheMaxBytes)} MiB cache, ${policy.numWorkers} worker thread(s)`);
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

  /** Whether the join of these turns and inserts (each copy counted) is long enough for a worker (JOIN_ON_LOOP_MAX_SAMPLES). */
  joinsOnWorker(turns: readonly SynthesisResult[], plan: TurnPlan, inserts: LoadedInserts): boolean {
    let numSamples = 0;
    for (const t of turns) numSamples += t.pcm.length;
    for (const s of plan.segments ?? []) if (s.kind === 'audio') numSamples += inserts.audio.get(s.src)?.pcm.length ?? 0;
    return numSamples > JOIN_ON_LOOP_MAX_SAMPLES;
  }

  /** Joins a request's turns with its inserts (join-turns.ts) on a worker; the turns' PCM is copied there. */
  join(request: SynthesisRequest, plan: TurnPlan, turns: SynthesisResult[], inserts: LoadedInserts): Promise<JoinedAudio> {
    this.numJoins++;
    return this.workers.run({ kind: 'join', request, plan, turns, inserts: { audio: inserts.audio, warnings: inserts.warnings } });
  }

  /** Budget, cache and workers now: for the host log and tests. */
  usage(): { numSamplesHeld: number; numWaiting: number; numCacheEntries: number; numCacheBytes: number; numDecodes: number; numJoins: number; numWorkers: number } {
    const budget = this.budget.usage();
    const cache = this.cache.usage();
    return { numSamplesHeld: budget.numSamplesHeld, numWaiting: budget.numWaiting, numCacheEntries: cache.numEntries, numCacheBytes: cache.numBytesHeld, numDecodes: this.cache.numDecodes, numJoins: this.numJoins, numWorkers: this.workers.numStarted() };
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
