/**
 * The timeline: the open project's identity, its turns with takes (which is chosen, which came
 * before for revert), the base clip's layout, loaded clip audio, the last processing trace and
 * marks, the generation queue (waiting / running / done), playback zoom, and the undo/redo
 * history of every edit of the turns (takes chosen or added, trim, gap, gain).
 */

export const MIN_ZOOM_PX_PER_S = 10;
export const MAX_ZOOM_PX_PER_S = 2000;

/** Undo steps kept. */
export const MAX_UNDO_STEPS = 200;
/** Edits of the same field of the same turn within this long are one undo step (typing 1-2-0 in a box). */
export const COALESCE_MS = 1000;
import type { StateCreator } from 'zustand';
import type { ClipRecord } from '../../../src-shared/contract/library';
import type { ProjectTurn, TakeRef, TurnEdit } from '../../../src-shared/contract/projects';
import { NO_EDIT } from '../../components/compose-timeline';
import { takeNameAt } from '../../components/take-name';
import type { MarkTimestamp, ProcessingTrace } from '../../../src-shared/synthesis';
import type { BaseLayout, ClipAudio } from '../../components/compose-timeline';
import { UNTITLED_PROJECT_NAME, randomId } from '../../shared-state/project-defaults';
import type { GenerationJob } from '../../shared-state/generation-job';

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
  /** Earlier and undone states of `turns`, newest last. */
  undoStack: ProjectTurn[][];
  redoStack: ProjectTurn[][];
  lastEdit: { key: string; atMs: number } | null;
  /** Changes how the timeline plays one turn (trim, gap before it, gain); one undo step. */
  setTurnEdit(turnIndex: number, patch: Partial<TurnEdit>, nowMs?: number): void;
  undo(): void;
  redo(): void;
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

/** The undo fields after recording the current turns as a step (and dropping what was undone). */
function pushUndo(s: Pick<TimelineSlice, 'turns' | 'undoStack'>): Pick<TimelineSlice, 'undoStack' | 'redoStack' | 'lastEdit'> {
  return { undoStack: [...s.undoStack, s.turns].slice(-MAX_UNDO_STEPS), redoStack: [], lastEdit: null };
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
  undoStack: [],
  redoStack: [],
  lastEdit: null,
  setTurnEdit: (turnIndex, patch, nowMs = Date.now()) => {
    const s = get();
    const key = `${turnIndex}:${Object.keys(patch).sort().join(',')}`;
    const coalesce = s.lastEdit !== null && s.lastEdit.key === key && nowMs - s.lastEdit.atMs < COALESCE_MS;
    const turns = s.turns.map((t) => (t.turnIndex === turnIndex ? { ...t, edit: { ...NO_EDIT, ...t.edit, ...patch } } : t));
    set({ ...(coalesce ? {} : pushUndo(s)), turns, lastEdit: { key, atMs: nowMs } });
  },
  undo: () => {
    const s = get();
    const previous = s.undoStack.at(-1);
    if (!previous) return;
    set({ turns: previous, undoStack: s.undoStack.slice(0, -1), redoStack: [...s.redoStack, s.turns], lastEdit: null, compare: null });
  },
  redo: () => {
    const s = get();
    const next = s.redoStack.at(-1);
    if (!next) return;
    set({ turns: next, redoStack: s.redoStack.slice(0, -1), undoStack: [...s.undoStack, s.turns], lastEdit: null, compare: null });
  },
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
          // The voice each turn was made with: the trace's (SSML voices), else the one stored with its span (a re-open), else the clip's (plain text).
          takes: [{ takeId, clipId: clip.id, seed: clip.seed, startSample: span.startSample, endSample: span.endSample, createdAtMs: clip.createdAtMs, label: takeNameAt(0), voice: trace?.turns.find((t) => t.turnIndex === span.turnIndex)?.voice ?? span.voice ?? clip.voice }],
          chosenTakeId: takeId,
          previousTakeId: null,
        };
      }),
      trace,
      marks,
      compare: null,
      // A new full generation is a new layout; undo does not reach across it.
      undoStack: [],
      redoStack: [],
      lastEdit: null,
    }),
  addTake: (turnIndex, take) =>
    set({
      ...pushUndo(get()),
      turns: get().turns.map((t) => (t.turnIndex === turnIndex ? { ...t, takes: [...t.takes, take], chosenTakeId: take.takeId, previousTakeId: t.chosenTakeId } : t)),
    }),
  chooseTake: (turnIndex, takeId) =>
    set({
      ...(get().turns.some((t) => t.turnIndex === turnIndex && t.chosenTakeId !== takeId && t.takes.some((k) => k.takeId === takeId)) ? pushUndo(get()) : {}),
      turns: get().turns.map((t) =>
        t.turnIndex === turnIndex && t.chosenTakeId !== takeId && t.takes.some((k) => k.takeId === takeId)
          ? { ...t, chosenTakeId: takeId, previousTakeId: t.chosenTakeId }
          : t,
      ),
    }),
  revertTake: (turnIndex) =>
    set({
      ...(get().turns.some((t) => t.turnIndex === turnIndex && t.previousTakeId) ? pushUndo(get()) : {}),
      turns: get().turns.map((t) =>
        t.turnIndex === turnIndex && t.previousTakeId ? { ...t, chosenTakeId: t.previousTakeId, previousTakeId: t.chosenTakeId } : t,
      ),
    }),
  setTimeline: ({ baseLayout, turns }) => set({ baseLayout, turns, compare: null, undoStack: [], redoStack: [], lastEdit: null }),
  upsertJob: (job) => set({ jobs: [...get().jobs.filter((j) => j.jobId !== job.jobId), job] }),
  patchJob: (jobId, patch) => set({ jobs: get().jobs.map((j) => (j.jobId === jobId ? { ...j, ...patch } : j)) }),
  clearFinishedJobs: () => set({ jobs: get().jobs.filter((j) => j.state === 'waiting' || j.state === 'running') }),
  setZoom: (zoomPxPerS) => set({ zoomPxPerS: Math.max(MIN_ZOOM_PX_PER_S, Math.min(MAX_ZOOM_PX_PER_S, zoomPxPerS)) }),
  setCompare: (compare) => set({ compare }),
});
