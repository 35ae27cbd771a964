/**
 * The Render page's state: every render main knows (kept current by its change events), the
 * queue URL set in main (null: render on this machine) and the last error of a page action.
 */
import type { StateCreator } from 'zustand';
import type { RenderJob } from '../../../src-shared/contract/render';
import { fieldSetters } from '../../store/field-setters';

export interface RenderSlice {
  renders: RenderJob[];
  renderQueueUrl: string | null;
  renderError: string | null;
  /** Takes main's list, keeping a newer state (or a render started meanwhile) that an event or call brought first. */
  setRenders(renders: RenderJob[]): void;
  /** Puts a changed render in place (a new one first). */
  upsertRender(job: RenderJob): void;
  setRenderQueueUrl(queueUrl: string | null): void;
  setRenderError(message: string | null): void;
}

export const createRenderSlice: StateCreator<RenderSlice, [], [], RenderSlice> = (set) => ({
  renders: [],
  renderQueueUrl: null,
  renderError: null,
  setRenders: (listed) =>
    set((s) => {
      const newer = (job: RenderJob) => s.renders.find((r) => r.id === job.id && r.updatedAtMs > job.updatedAtMs) ?? job;
      const started = s.renders.filter((r) => !listed.some((l) => l.id === r.id));
      return { renders: [...started, ...listed.map(newer)] };
    }),
  upsertRender: (job) =>
    set((s) => {
      const known = s.renders.find((r) => r.id === job.id);
      // events may arrive out of order with a list answer: keep the newer state
      if (known && known.updatedAtMs > job.updatedAtMs) return {};
      return { renders: known ? s.renders.map((r) => (r.id === job.id ? job : r)) : [job, ...s.renders] };
    }),
  ...fieldSetters(set, ['renderQueueUrl', 'renderError']),
});
