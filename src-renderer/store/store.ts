/**
 * The bound zustand store, composed from feature slices. Features add their slice here; tests
 * call resetStore() between cases so no state leaks from one test to the next.
 */
import { create } from 'zustand';
import { createShellSlice, type ShellSlice } from '../app/shell.slice';

export type StudioState = ShellSlice;

export const useStudioStore = create<StudioState>()((...a) => ({
  ...createShellSlice(...a),
}));

const initialState = useStudioStore.getState();

export function resetStore(): void {
  useStudioStore.setState(initialState, true);
}
