/**
 * Generation: sends the editor's document (or one turn of it, for a new take with a kept, new or
 * typed seed) to studio:tts.synthesize with streaming on, tracks the job through waiting → running → done,
 * plays audio as it arrives, stores the clip in the library and updates the timeline's takes. The
 * Speak screen builds and follows its own requests with the same parts (buildRequest, followRequest).
 */
import { CHANNELS, EVENTS } from '../../src-shared/ipc-contract';
import { toStudioError } from '../../src-shared/errors';
import type { NewClip } from '../../src-shared/contract/library';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { call, subscribe } from '../ipc/client';
import { useStudioStore, type StudioState } from '../store/store';
import { hostBlockedReason } from '../ipc/connection';
import { documentVoiceBlocker } from '../components/voice-blocker';
import { loadedModelName } from '../components/model-name';
import { StreamPlayer } from '../components/stream-player';
import { takeNameAt } from '../components/take-name';
import type { GenerationJob } from './generation-job';

export function newId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/** A short title for the library: the document's text without markup, first 60 characters. */
export function titleOf(text: string): string {
  const plain = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return plain.length > 60 ? `${plain.slice(0, 57)}…` : plain || 'Untitled clip';
}

/** A request from the voice settings and `doc` (default: the editor's document). */
export function buildRequest(requestId: string, seed: number, doc?: { input: string; inputFormat: 'text' | 'ssml' }): SynthesisRequest {
  const s = useStudioStore.getState();
  const v = s.voiceSettings;
  const instruct = s.modelInfo?.kind === 'voice_design' ? v.voiceDescription : s.modelInfo?.supportsInstruct ? v.instruct : '';
  return {
    requestId,
    input: doc?.input ?? s.editorText,
    inputFormat: doc?.inputFormat ?? s.editorFormat,
    voice: v.voice,
    language: v.language,
    seed,
    ...(instruct.trim() ? { instruct: instruct.trim() } : {}),
    ...(v.params ? { params: v.params } : {}),
    priority: 'interactive',
    stream: true,
    ...(s.editorFormat === 'ssml' ? { ssmlOptions: { ...s.editorSsmlOptions } } : {}),
    loudness: { ...s.outputLoudness },
  };
}

export function clipFrom(request: SynthesisRequest, result: SynthesisResult): NewClip {
  return {
    title: titleOf(request.input),
    input: request.input,
    inputFormat: request.inputFormat,
    voice: result.effectiveParams.voice,
    language: result.effectiveParams.language,
    seed: result.effectiveParams.seed,
    instruct: request.instruct ?? null,
    params: (({ seed: _s, voice: _v, language: _l, ...p }) => p)(result.effectiveParams),
    modelHash: result.modelHash,
    timings: result.timings,
    sampleRateHz: result.sampleRateHz,
    // Each turn's voice beside its span, so a re-open from the Library names every turn's speaker.
    turnSpans: result.turnSpans.map((span) => {
      const voice = result.trace?.turns.find((t) => t.turnIndex === span.turnIndex)?.voice;
      return voice ? { ...span, voice } : span;
    }),
    // Every turn's voice (SSML with <voice> changes), so the Library's voice filter finds the clip by each.
    voices: [...new Set([result.effectiveParams.voice, ...(result.trace?.turns.map((t) => t.voice) ?? [])])],
  };
}

/** Listens to one request's events until it ends; returns the unsubscribe function. */
export function followRequest(job: GenerationJob, player: StreamPlayer | null): () => void {
  const { patchJob } = useStudioStore.getState();
  const offs = [
    subscribe(EVENTS.onDidProgress, (p) => {
      if (p.requestId !== job.requestId) return;
      const current = useStudioStore.getState().jobs.find((j) => j.jobId === job.jobId);
      if (!current || (current.state !== 'waiting' && current.state !== 'running')) return;
      // A one-turn take is reported as turn 0; show it under the turn it is a take of.
      const shownTurn = job.kind === 'turn' && job.turnIndex !== null ? job.turnIndex : p.turnIndex;
      patchJob(job.jobId, { state: 'running', progress: { ...current.progress, [shownTurn]: { numFramesDone: p.numFramesDone, numFramesEstimated: p.numFramesEstimated } } });
      if (p.numFramesEstimated > 0 && p.numFramesDone >= p.numFramesEstimated) player?.finishTurn(p.turnIndex);
    }),
    subscribe(EVENTS.onDidProduceAudio, (chunk) => {
      if (chunk.requestId !== job.requestId) return;
      const current = useStudioStore.getState().jobs.find((j) => j.jobId === job.jobId);
      if (current && current.firstAudioAtMs === null) patchJob(job.jobId, { state: 'running', firstAudioAtMs: Date.now() });
      player?.push(chunk);
    }),
  ];
  return () => offs.forEach((off) => off());
}

/** How a new take picks its seed: the chosen take's seed again, a new random one, or a typed one. */
export type SeedChoice = { kind: 'keep' } | { kind: 'random' } | { kind: 'typed'; seed: number };

/** The seed a new take of `turnIndex` gets under `choice`. */
export function seedForTake(turnIndex: number, choice: SeedChoice): number {
  if (choice.kind === 'typed') return choice.seed;
  if (choice.kind === 'random') return randomSeed();
  const turn = useStudioStore.getState().turns.find((t) => t.turnIndex === turnIndex);
  return turn?.takes.find((k) => k.takeId === turn.chosenTakeId)?.seed ?? useStudioStore.getState().voiceSettings.seed;
}

/**
 * Generates the whole document (kind 'full'), or a new take of one turn: only that turn is
 * synthesised (one engine sequence, streamed), its clip is filed under the turn's own voice, and
 * the take becomes the chosen one.
 */
export async function generate(options: { turnIndex?: number; stream?: boolean; seed?: SeedChoice } = {}): Promise<GenerationJob> {
  const store = useStudioStore.getState();
  const isTurn = options.turnIndex !== undefined;
  const seed = isTurn ? seedForTake(options.turnIndex!, options.seed ?? { kind: 'random' }) : store.voiceSettings.seed;
  const job: GenerationJob = {
    jobId: newId(),
    requestId: `ui-${newId()}`,
    kind: isTurn ? 'turn' : 'full',
    turnIndex: options.turnIndex ?? null,
    seed,
    state: 'waiting',
    progress: {},
    firstAudioAtMs: null,
    error: null,
    createdAtMs: Date.now(),
  };
  store.upsertJob(job);
  const request: SynthesisRequest = { ...buildRequest(job.requestId, seed), ...(isTurn ? { turnIndex: options.turnIndex } : {}) };
  const player = options.stream === false ? null : new StreamPlayer(request.loudness ?? null);
  const unfollow = followRequest(job, player);
  try {
    const result = await call(CHANNELS.synthesize, request);
    player?.replaceWithFinal(result.pcm, result.sampleRateHz);
    const clip = clipFrom(request, result);
    if (isTurn) {
      clip.title = `Turn ${options.turnIndex! + 1} take · ${clip.title}`;
      // Filed under the clip it is a take of: the Library keeps one entry per clip with its takes.
      const baseClipId = useStudioStore.getState().baseLayout?.clipId;
      if (baseClipId) clip.takeOf = { clipId: baseClipId, turnIndex: options.turnIndex! };
    }
    // A base clip deleted from the library since: the take is stored as a clip of its own.
    const saved = await call(CHANNELS.saveClip, { clip, fromRequestId: request.requestId }).catch((err: unknown) => {
      if (!clip.takeOf || toStudioError(err).code !== 'not-found') throw err;
      const { takeOf: _dropped, ...own } = clip;
      return call(CHANNELS.saveClip, { clip: own, fromRequestId: request.requestId });
    });
    const s = useStudioStore.getState();
    s.addClip(saved, { sampleRateHz: result.sampleRateHz, pcm: result.pcm });
    if (isTurn) {
      const turn = s.turns.find((t) => t.turnIndex === options.turnIndex);
      if (!turn) throw new Error(`the timeline has no turn ${options.turnIndex! + 1}; the document changed since the last full generation — generate it again`);
      s.addTake(options.turnIndex!, { takeId: newId(), clipId: saved.id, seed: result.effectiveParams.seed, startSample: 0, endSample: result.numSamples, createdAtMs: saved.createdAtMs, voice: result.effectiveParams.voice, label: takeNameAt(turn.takes.length) });
    } else {
      s.setBaseClip(saved, result.trace, result.marks, newId);
    }
    s.patchJob(job.jobId, { state: 'done' });
  } catch (err) {
    const e = toStudioError(err);
    useStudioStore.getState().patchJob(job.jobId, e.code === 'cancelled' ? { state: 'cancelled' } : { state: 'failed', error: { code: e.code, message: e.message } });
  } finally {
    unfollow();
    if (player) setTimeout(() => player.dispose(), Math.max(30, player.remainingS() + 1) * 1000);
  }
  return useStudioStore.getState().jobs.find((j) => j.jobId === job.jobId) ?? job;
}

/** Why the loaded model cannot speak one of the document's turn voices, or null (and null before a model is known: the engine checks then). */
export function turnVoiceBlocker(s: StudioState): string | null {
  if (!s.modelInfo) return null;
  return documentVoiceBlocker({ model: s.modelInfo, modelName: loadedModelName(s.modelInfo, s.models), doc: s.editorText, format: s.editorFormat, chosenVoice: s.voiceSettings.voice, speakers: s.voices, savedVoices: s.savedVoices, lenient: s.editorSsmlOptions.lenient === true });
}

/**
 * Generate as the user asks for it (the button, Ctrl/Cmd+Enter in the editor or on the Timeline):
 * refused while the host is away, the loaded model cannot speak a turn's voice, or the editor's SSML
 * has problems, with the first of them as the reason shown beside
 * Generate (the same check that disables the button). Returns whether it started.
 */
export function requestGenerate(): boolean {
  const s = useStudioStore.getState();
  const hostBlocked = hostBlockedReason(s.connection);
  if (hostBlocked) {
    s.setGenerateRefusal(`Not generated: ${hostBlocked}`);
    return false;
  }
  const voiceBlocked = turnVoiceBlocker(s);
  if (voiceBlocked) {
    s.setGenerateRefusal(`Not generated: ${voiceBlocked}`);
    return false;
  }
  const problems = s.editorFormat === 'ssml' ? s.diagnostics : [];
  if (problems.length > 0) {
    const first = problems[0];
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    s.setGenerateRefusal(`Not generated: fix the SSML first — line ${first.line}, column ${first.column}: ${first.message}${more}`);
    return false;
  }
  s.setGenerateRefusal(null);
  void generate();
  return true;
}

/** Cancels every waiting or running job. */
export async function cancelAll(): Promise<void> {
  const active = useStudioStore.getState().jobs.filter((j) => j.state === 'waiting' || j.state === 'running');
  await Promise.all(active.map((j) => call(CHANNELS.cancel, { requestId: j.requestId }).catch(() => null)));
  for (const j of active) useStudioStore.getState().patchJob(j.jobId, { state: 'cancelled' });
}
