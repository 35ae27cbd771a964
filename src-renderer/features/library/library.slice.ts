/**
 * The clip library view: the listed clips, the search text and filters, and the loading state.
 */
import type { StateCreator } from 'zustand';
import type { ClipRecord } from '../../../src-shared/contract/library';

export interface LibrarySlice {
  libraryClips: ClipRecord[];
  librarySearch: string;
  libraryVoice: string;
  libraryError: string | null;
  setLibraryClips(clips: ClipRecord[]): void;
  setLibraryFilter(patch: { search?: string; voice?: string }): void;
  setLibraryError(message: string | null): void;
}

export const createLibrarySlice: StateCreator<LibrarySlice, [], [], LibrarySlice> = (set) => ({
  libraryClips: [],
  librarySearch: '',
  libraryVoice: '',
  libraryError: null,
  setLibraryClips: (libraryClips) => set({ libraryClips, libraryError: null }),
  setLibraryFilter: (patch) =>
    set((s) => ({ librarySearch: patch.search ?? s.librarySearch, libraryVoice: patch.voice ?? s.libraryVoice })),
  setLibraryError: (libraryError) => set({ libraryError }),
});
