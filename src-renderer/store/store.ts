/**
 * The bound zustand store, composed from feature slices. Features add their slice here; tests
 * call resetStore() between cases so no state leaks from one test to the next.
 */
import { create } from 'zustand';
import { createShellSlice, type ShellSlice } from '../app/shell.slice';
import { createVoiceSlice, type VoiceSlice } from '../features/voice/voice.slice';
import { createEditorSlice, type EditorSlice } from '../features/editor/editor.slice';
import { createTimelineSlice, type TimelineSlice } from '../features/timeline/timeline.slice';
import { createLibrarySlice, type LibrarySlice } from '../features/library/library.slice';
import { createProjectsSlice, type ProjectsSlice } from '../features/projects/projects.slice';
import { createBenchSlice, type BenchSlice } from '../features/bench/bench.slice';
import { createModelsSlice, type ModelsSlice } from '../features/models/models.slice';
import { createSpeakSlice, type SpeakSlice } from '../features/speak/speak.slice';
import { createRenderSlice, type RenderSlice } from '../features/render/render.slice';

export type StudioState = ShellSlice & VoiceSlice & EditorSlice & TimelineSlice & LibrarySlice & ProjectsSlice & BenchSlice & ModelsSlice & SpeakSlice & RenderSlice;

export const useStudioStore = create<StudioState>()((...a) => ({
  ...createShellSlice(...a),
  ...createVoiceSlice(...a),
  ...createEditorSlice(...a),
  ...createTimelineSlice(...a),
  ...createLibrarySlice(...a),
  ...createProjectsSlice(...a),
  ...createBenchSlice(...a),
  ...createModelsSlice(...a),
  ...createSpeakSlice(...a),
  ...createRenderSlice(...a),
}));

const initialState = useStudioStore.getState();

export function resetStore(): void {
  useStudioStore.setState(initialState, true);
}
