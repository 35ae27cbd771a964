/**
 * One generation in the queue the Timeline shows and the Speak screen adds to: which request it
 * is, what it makes (the whole document, one turn's take, a Speak take), its state and progress
 * per turn. Types only; the Timeline's slice holds the queue, generate-actions.ts fills it.
 */

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
