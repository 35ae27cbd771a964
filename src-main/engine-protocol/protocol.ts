/**
 * The message-port protocol between main (or the headless host) and the engine host process.
 * Calls carry an id and get exactly one reply; events flow host → main at any time.
 * Payloads are structured-cloneable (typed arrays travel as such).
 * Imported by both sides (engine-protocol/): types and constants only, no I/O.
 */
import type { SerializedStudioError } from '../../src-shared/errors';
import type { ClonePrompt } from '../../src-shared/voice-clone';
import type { EngineStatus, ModelInfo, SynthesisRequest, SynthesisResult, VoiceInfo } from '../../src-shared/synthesis';

/**
 * A synthesis call to the host: the request, and who asked (CallContext.clientId: 'local' or a remote
 * peer address), for the host's fair shares of pooled work (<audio> inserts, insert-budget.ts);
 * absent: one shared anonymous client.
 */
export type HostSynthesisRequest = SynthesisRequest & { clientId?: string };

export interface HostMethods {
  synthesize: { args: HostSynthesisRequest; result: SynthesisResult };
  cancel: { args: { requestId: string }; result: { cancelled: boolean } };
  status: { args: Record<string, never>; result: EngineStatus };
  modelInfo: { args: Record<string, never>; result: ModelInfo | null };
  listVoices: { args: Record<string, never>; result: VoiceInfo[] };
  /** A Base model's clone prompt of a reference clip (its file's bytes, any common format): in-context ('icl') with its transcript, else x-vector. */
  makeVoice: { args: { audio: Uint8Array; refText?: string }; result: { prompt: ClonePrompt; durationMs: number; warnings: string[] } };
  /** Stop accepting, finish or cancel in-flight work within graceMs, then reply. */
  drain: { args: { graceMs: number }; result: { numFinished: number; numCancelled: number } };
  /** The supervisor's heartbeat (host-client.ts watchdog); answered from the host's event loop. */
  ping: { args: Record<string, never>; result: HostHeartbeat };
}

export interface HostHeartbeat {
  /** How long the engine step now running has run (0 when the loop is between steps or idle). */
  stepAgeMs: number;
  /** Requests the host holds (queued, running or finishing). */
  numJobs: number;
}
export type HostMethod = keyof HostMethods;

export type MainToHost = { kind: 'call'; id: number; method: HostMethod; args: unknown };

/**
 * 'accepted': the host has read synthesize call `id` and begins it (sent before any work on it). A
 * host that dies before sending it was never given the request, so the request may go to another engine.
 */
export type HostToMain =
  | { kind: 'ready'; status: EngineStatus }
  | { kind: 'accepted'; id: number }
  | { kind: 'reply'; id: number; ok: true; value: unknown }
  | { kind: 'reply'; id: number; ok: false; error: SerializedStudioError }
  | { kind: 'event'; event: string; payload: unknown }
  | { kind: 'fatal'; error: SerializedStudioError };

/** HostStartOptions.model for the embedded default: a synthetic tiny model the host builds on first run (engine-host/embedded-model.ts). */
export const EMBEDDED_TINY = 'embedded:tiny';

/** Options the engine host process starts with (passed as one JSON argv entry). */
export interface HostStartOptions {
  /** A built model folder, a checkpoint folder, or 'embedded:tiny' for the synthetic default. */
  model: string;
  /** The id the user picked it by (ModelInfo.id); defaults to `model`. */
  modelId?: string;
  /** Where the embedded tiny model is generated and cached. */
  cacheDir: string;
  /** EngineConfig overrides (validated in the host). */
  engineConfig: Record<string, unknown>;
  /** SchedulerConfig overrides (validated in the host); batch limits default to the engine's. */
  schedulerConfig?: Record<string, unknown>;
  /**
   * Absolute folders SSML <audio src> may read regular files from (audio-inserts.ts); none means
   * every <audio> is refused. The composition root passes defaultAudioInsertRoots(userDataDir) plus
   * whatever the desktop app's user granted.
   */
  audioRoots?: string[];
}
