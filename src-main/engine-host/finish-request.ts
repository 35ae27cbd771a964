/**
 * Joins the per-turn outcomes of one request into its SynthesisOutcome: any cancelled turn makes
 * the request cancelled, any failed turn makes it fail with that turn's error; otherwise the turns'
 * PCM is joined in order by `join` (SSML requests through the audio pipeline; those with <audio>
 * inserts joined on a worker beforehand, insert-service.ts) and the request-level timings are computed. Audio duration and RTF refer to the final (post-processed) recording.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import { findSavedVoice } from './saved-voices';
import { StudioError } from '../../src-shared/errors';
import type { SynthesisOutcome, SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import type { TurnPlan } from './turn-plan';
import type { JoinedAudio } from './join-turns';

export interface RequestClock {
  startedMs: number;
  firstAudioMs: number | null;
}

export function finishRequest(
  request: SynthesisRequest,
  plan: TurnPlan,
  outcomes: readonly SynthesisOutcome[],
  clock: RequestClock,
  join: (turns: SynthesisResult[]) => JoinedAudio,
): { outcome: SynthesisOutcome; error: StudioError | null } {
  const failed = outcomes.find((o) => o.status === 'failed');
  if (failed && failed.status === 'failed') {
    const error = StudioError.fromSerialized(failed.error);
    return { outcome: { status: 'failed', requestId: request.requestId, error: error.toJSON() }, error };
  }
  if (outcomes.some((o) => o.status === 'cancelled')) {
    const error = new StudioError('cancelled', `request '${request.requestId}' was cancelled`, { requestId: request.requestId });
    return { outcome: { status: 'cancelled', requestId: request.requestId }, error };
  }
  const turns = outcomes.map((o) => (o as Extract<SynthesisOutcome, { status: 'done' }>).result);
  const joined = join(turns);
  const first = turns[0];
  const latencyTotalMs = performance.now() - clock.startedMs;
  const audioDurationMs = (joined.pcm.length * 1000) / first.sampleRateHz;
  const result: SynthesisResult = {
    ...first,
    requestId: request.requestId,
    numSamples: joined.pcm.length,
    pcm: joined.pcm,
    timings: {
      numPromptTokens: turns.reduce((n, t) => n + t.timings.numPromptTokens, 0),
      numFrames: turns.reduce((n, t) => n + t.timings.numFrames, 0),
      queueWaitMs: turns.reduce((min, t) => Math.min(min, t.timings.queueWaitMs), Infinity),
      latencyFirstAudioMs: clock.firstAudioMs ?? latencyTotalMs,
      latencyTotalMs,
      audioDurationMs,
      rtf: audioDurationMs > 0 ? latencyTotalMs / audioDurationMs : 0,
    },
    // A one-turn take reports the turn's own voice and language (what the take was made with); a saved voice by its name.
    effectiveParams: request.turnIndex === undefined ? { ...first.effectiveParams, voice: findSavedVoice(request.voice, request.savedVoices)?.name ?? request.voice, language: request.language } : { ...first.effectiveParams, voice: plan.turns[0].voice, language: plan.turns[0].language },
    warnings: [...plan.warnings, ...joined.warnings, ...new Set(turns.flatMap((t) => t.warnings))],
    truncated: turns.some((t) => t.truncated),
    marks: joined.marks,
    trace: joined.trace,
    turnSpans: joined.turnSpans,
  };
  return { outcome: { status: 'done', result }, error: null };
}
