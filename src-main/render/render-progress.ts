/**
 * A render's progress (parts done and failed, per chapter) and the shape of a failed part; shared
 * by the queued and the in-process render, without loading the queue client.
 */
import type { RenderPart, RenderPlan } from './render-plan';

/** Progress of a render: parts done (rendered or skipped) and failed, per chapter. */
export interface RenderProgress {
  numDone: number;
  numFailed: number;
  numParts: number;
  chapters: { title: string; numDone: number; numParts: number }[];
}

export interface PartFailure {
  part: RenderPart;
  reason: string;
}

export function progressOf(plan: RenderPlan, done: ReadonlySet<string>, failed: ReadonlyMap<string, string>): RenderProgress {
  const chapters = plan.chapters.map((c) => ({ title: c.title, numDone: 0, numParts: c.numParts }));
  for (const p of plan.parts) if (done.has(p.id)) chapters[p.chapter].numDone++;
  const numDone = plan.parts.filter((p) => done.has(p.id)).length;
  const numFailed = plan.parts.filter((p) => failed.has(p.id)).length;
  return { numDone, numFailed, numParts: plan.parts.length, chapters };
}
