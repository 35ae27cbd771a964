/**
 * The timeline: the open project's identity, its turns with takes (which is chosen, which came
 * before for revert), the base clip's layout, loaded clip audio, the last processing trace and
 * marks, the generation queue (waiting / running / done) and playback zoom.
 */
import type { StateCreator } from 'zustand';
import type { ClipRecord } from '../../../src-shared/contract/library';
import type { ProjectTurn, TakeRef } from '../../../src-shared/contract/projects';
import type { MarkTimestamp, ProcessingTrace } from '../../../src-shared/synthesis';
import type { BaseLayout, ClipAudio } from './compose-timeline';

/** The name of a project nobody has named yet. */
export const UNTITLED_PROJECT_NAME = 'Untitled project';

export type JobState = 'waiting' | 'running' | 'done' | 'failed' | 'cancelled';

export interface GenerationJob {
  jobId: string;
  requestId: string;
  /** 'speak': a Speak-screen generation (its own text, not the timeline's document). */
  kind: 'full' | 'turn' | 'speak';
  /** For a per-turn regeneration: the turn that gets the new take. */
  turnIndex: number | null;
  seed: number;
  state: JobState;
  /** Frames done / estimated per turn, from onDidProgress. */
  progress: Record<number, { numFramesDone: number; numFramesEstimated: number }>;
  firstAudioAtMs: number | null;
  error: { code: string; message: string } | null;
  createdAtMs: number;
}

export interface TimelineSlice {
  projectId: string;
  projectName: string;
  projectPath: string | null;
  baseLayout: BaseLayout | null;
  turns: ProjectTurn[];
  clips: Record<string, ClipRecord>;
  clipAudio: Record<string, ClipAudio>;
  trace: ProcessingTrace | null;
  marks: MarkTimestamp[];
  jobs: GenerationJob[];
  zoomPxPerS: number;
  compare: { turnIndex: number; takeIdA: string; takeIdB: string } | null;
  setProjectMeta(patch: Partial<Pick<TimelineSlice, 'projectId' | 'projectName' | 'projectPath'>>): void;
  addClip(clip: ClipRecord, audio: ClipAudio | null): void;
  /** A full generation: its clip becomes the base layout with one fresh take per turn. */
  setBaseClip(clip: ClipRecord, trace: ProcessingTrace | null, marks: MarkTimestamp[], newId: () => string): void;
  /** A per-turn regeneration: the clip's span of that turn becomes a new, chosen take. */
  addTake(turnIndex: number, take: TakeRef): void;
  chooseTake(turnIndex: number, takeId: string): void;
  revertTake(turnIndex: number): void;
  setTimeline(state: { baseLayout: BaseLayout | null; turns: ProjectTurn[] }): void;
  upsertJob(job: GenerationJob): void;
  patchJob(jobId: string, patch: Partial<GenerationJob>): void;
  clearFinishedJobs(): void;
  setZoom(pxPerS: number): void;
  setCompare(compare: TimelineSlice['compare']): void;
}

function randomId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export const createTimelineSlice: StateCreator<TimelineSlice, [], [], TimelineSlice> = (set, get) => ({
  projectId: randomId(),
  projectName: UNTITLED_PROJECT_NAME,
  projectPath: null,
  baseLayout: null,
  turns: [],
  clips: {},
  clipAudio: {},
  trace: null,
  marks: [],
  jobs: [],
  zoomPxPerS: 100,
  compare: null,
  setProjectMeta: (patch) => set(patch),
  addClip: (clip, audio) =>
    set((s) => ({ clips: { ...s.clips, [clip.id]: clip }, clipAudio: audio ? { ...s.clipAudio, [clip.id]: audio } : s.clipAudio })),
  setBaseClip: (clip, trace, marks, newId) =>
    set({
      baseLayout: { clipId: clip.id, numSamples: clip.numSamples, turnSpans: clip.turnSpans },
      turns: clip.turnSpans.map((span) => {
        const takeId = newId();
        return {
          turnIndex: span.turnIndex,
          // The voice each turn was made with: the trace's (SSML voices), else the clip's (plain text).
          takes: [{ takeId, clipId: clip.id, seed: clip.seed, startSample: span.startSample, endSample: span.endSample, createdAtMs: clip.createdAtMs, label: 'Take 1', voice: trace?.turns.find((t) => t.turnIndex === span.turnIndex)?.voice ?? clip.voice }],
          chosenTakeId: takeId,
          previousTakeId: null,
        };
      }),
      trace,
      marks,
      compare: null,
    }),
  addTake: (turnIndex, take) =>
    set({
      turns: get().turns.map((t) => (t.turnIndex === turnIndex ? { ...t, takes: [...t.takes, take], chosenTakeId: take.takeId, previousTakeId: t.chosenTakeId } : t)),
    }),
  chooseTake: (turnIndex, takeId) =>
    set({
      turns: get().turns.map((t) =>
        t.turnIndex === turnIndex && t.chosenTakeId !== takeId && t.takes.some((k) => k.takeId === takeId)
          ? { ...t, chosenTakeId: takeId, previousTakeId: t.chosenTakeId }
          : t,
      ),
    }),
  revertTake: (turnIndex) =>
    set({
      turns: get().turns.map((t) =>
        t.turnIndex === turnIndex && t.previousTakeId ? { ...t, chosenTakeId: t.previousTakeId, previousTakeId: t.chosenTakeId } : t,
      ),
    }),
  setTimeline: ({ baseLayout, turns }) => set({ baseLayout, turns, compare: null }),
  upsertJob: (job) => set({ jobs: [...get().jobs.filter((j) => j.jobId !== job.jobId), job] }),
  patchJob: (jobId, patch) => set({ jobs: get().jobs.map((j) => (j.jobId === jobId ? { ...j, ...patch } : j)) }),
  clearFinishedJobs: () => set({ jobs: get().jobs.filter((j) => j.state === 'waiting' || j.state === 'running') }),
  setZoom: (zoomPxPerS) => set({ zoomPxPerS: Math.max(10, Math.min(2000, zoomPxPerS)) }),
  setCompare: (compare) => set({ compare }),
});
