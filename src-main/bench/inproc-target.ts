/**
 * The inproc BenchTarget: drives the engine host through its public contract (a client with
 * synthesize + status), no HTTP. The lead wires the client; this file only adapts shapes.
 * StudioErrors become HTTP-equivalent statuses (busy → 429, timeout → 504) so both targets count alike.
 * First audio is the engine host's own (its first decoded chunk, streamed or not), so a plain workload reports it too.
 */
import { httpStatusForError, StudioError } from '../../src-shared/errors';
import type { EngineStatus, SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import type { BenchResponse, BenchSynthesisRequest, BenchTarget } from './target';

export interface InprocEngineClient {
  synthesize(request: SynthesisRequest, signal: AbortSignal): Promise<SynthesisResult & { wav: Uint8Array }>;
  status(): Promise<EngineStatus>;
}

let nextRequestNumber = 0;

export function toSynthesisRequest(req: BenchSynthesisRequest, requestId: string): SynthesisRequest {
  const isSsml = req.ssml !== undefined;
  return {
    requestId,
    input: isSsml ? (req.ssml as string) : (req.text ?? ''),
    inputFormat: isSsml ? 'ssml' : 'text',
    voice: req.voice,
    language: req.language ?? 'auto',
    seed: req.seed,
    stream: req.stream,
    ...(isSsml && req.ssmlOptions ? { ssmlOptions: { ...req.ssmlOptions } } : {}),
  };
}

export function createInprocTarget(client: InprocEngineClient, name = 'inproc'): BenchTarget {
  return {
    name,

    async synthesize(req: BenchSynthesisRequest, signal: AbortSignal): Promise<BenchResponse> {
      nextRequestNumber += 1;
      const requestId = `bench-${process.pid}-${nextRequestNumber}`;
      try {
        const result = await client.synthesize(toSynthesisRequest(req, requestId), signal);
        return {
          bytes: result.wav,
          firstByteMs: result.timings.latencyFirstAudioMs,
          status: 200,
          audioDurationMs: result.timings.audioDurationMs,
        };
      } catch (err) {
        if (signal.aborted) throw err;
        if (err instanceof StudioError && err.code !== 'cancelled') {
          return { bytes: new Uint8Array(0), firstByteMs: null, status: httpStatusForError(err.code), audioDurationMs: null, errorMessage: `${err.code}: ${err.message}` };
        }
        throw err;
      }
    },

    async status() {
      const s = await client.status();
      return { queueDepth: s.queueDepth, numWaiting: s.numWaiting, numRunning: s.numRunning, ...(s.steps ? { steps: s.steps } : {}) };
    },

    async describe() {
      const s = await client.status();
      return { engineVersion: s.engineVersion || null, provider: s.provider, modelHash: s.model?.modelHash ?? null, plan: s.plan ?? null };
    },

    dispose() {},
  };
}
