/**
 * Generation: sends the editor's document (or a per-turn regeneration with a new seed) to
 * studio:tts.synthesize with streaming on, tracks the job through waiting → running → done,
 * plays audio as it arrives, stores the clip in the library and updates the timeline's takes.
 */
import { CHANNELS, EVENTS } from '../../../src-shared/ipc-contract';
import { toStudioError } from '../../../src-shared/errors';
import type { NewClip } from '../../../src-shared/contract/library';
import type { SynthesisRequest, SynthesisResult } from '../../../src-shared/synthesis';
import { call, subscribe } from '../../ipc/client';
import { useStudioStore } from '../../store/store';
import { StreamPlayer } from '../../components/stream-player';
import type { GenerationJob } from './timeline.slice';

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

function buildRequest(requestId: string, seed: number): SynthesisRequest {
  const s = useStudioStore.getState();
  const v = s.voiceSettings;
  const instruct = s.modelInfo?.kind === 'voice_design' ? v.voiceDescription : s.modelInfo?.supportsInstruct ? v.instruct : '';
  return {
    requestId,
    input: s.editorText,
    inputFormat: s.editorFormat,
    voice: v.voice,
    language: v.language,
    seed,
    ...(instruct.trim() ? { instruct: instruct.trim() } : {}),
    ...(v.params ? { params: v.params } : {}),
    priority: 'interactive',
    stream: true,
    ...(s.editorFormat === 'ssml' ? { ssmlOptions: { ...s.editorSsmlOptions } } : {}),
  };
}

function clipFrom(request: SynthesisRequest, result: SynthesisResult): NewClip {
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
    turnSpans: result.turnSpans,
  };
}

/** Listens to one request's events until it ends; returns the unsubscribe function. */
function followRequest(job: GenerationJob, player: StreamPlayer | null): () => void {
  const { patchJob } = useStudioStore.getState();
  const offs = [
    subscribe(EVENTS.onDidProgress, (p) => {
      if (p.requestId !== job.requestId) return;
      const current = useStudioStore.getState().jobs.find((j) => j.jobId === job.jobId);
      if (!current || (current.state !== 'waiting' && current.state !== 'running')) return;
      patchJob(job.jobId, { state: 'running', progress: { ...current.progress, [p.turnIndex]: { numFramesDone: p.numFramesDone, numFramesEstimated: p.numFramesEstimated } } });
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

/** Generates the whole document (kind 'full') or a new take of one turn with a fresh seed. */
export async function generate(options: { turnIndex?: number; stream?: boolean } = {}): Promise<GenerationJob> {
  const store = useStudioStore.getState();
  const isTurn = options.turnIndex !== undefined;
  const seed = isTurn ? randomSeed() : store.voiceSettings.seed;
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
  const request = buildRequest(job.requestId, seed);
  const player = options.stream === false || isTurn ? null : new StreamPlayer();
  const unfollow = followRequest(job, player);
  try {
    const result = await call(CHANNELS.synthesize, request);
    const clip = await call(CHANNELS.saveClip, { clip: clipFrom(request, result), fromRequestId: request.requestId });
    const s = useStudioStore.getState();
    s.addClip(clip, { sampleRateHz: result.sampleRateHz, pcm: result.pcm });
    if (isTurn && s.baseLayout) {
      const span = result.turnSpans.find((t) => t.turnIndex === options.turnIndex);
      if (!span) throw new Error(`the regenerated document has no turn ${options.turnIndex}; the document changed since the last full generation — generate it again`);
      s.addTake(options.turnIndex!, { takeId: newId(), clipId: clip.id, seed, startSample: span.startSample, endSample: span.endSample, createdAtMs: clip.createdAtMs });
    } else {
      s.setBaseClip(clip, result.trace, result.marks, newId);
    }
    s.patchJob(job.jobId, { state: 'done' });
  } catch (err) {
    const e = toStudioError(err);
    useStudioStore.getState().patchJob(job.jobId, e.code === 'cancelled' ? { state: 'cancelled' } : { state: 'failed', error: { code: e.code, message: e.message } });
  } finally {
    unfollow();
    if (player) setTimeout(() => player.dispose(), 30_000);
  }
  return useStudioStore.getState().jobs.find((j) => j.jobId === job.jobId) ?? job;
}

/** Cancels every waiting or running job. */
export async function cancelAll(): Promise<void> {
  const active = useStudioStore.getState().jobs.filter((j) => j.state === 'waiting' || j.state === 'running');
  await Promise.all(active.map((j) => call(CHANNELS.cancel, { requestId: j.requestId }).catch(() => null)));
  for (const j of active) useStudioStore.getState().patchJob(j.jobId, { state: 'cancelled' });
}
