/**
 * The clip library view: the listed clips, the search text and filters (voice in any turn,
 * favourites only), and the loading state.
 */
import type { StateCreator } from 'zustand';
import type { ClipRecord } from '../../../src-shared/contract/library';

export interface LibrarySlice {
  libraryClips: ClipRecord[];
  librarySearch: string;
  libraryVoice: string;
  libraryFavouritesOnly: boolean;
  libraryError: string | null;
  setLibraryClips(clips: ClipRecord[]): void;
  setLibraryFilter(patch: { search?: string; voice?: string; favouritesOnly?: boolean }): void;
  /** Puts an updated clip (renamed, favourite) in place in the list. */
  replaceLibraryClip(clip: ClipRecord): void;
  setLibraryError(message: string | null): void;
}

export const createLibrarySlice: StateCreator<LibrarySlice, [], [], LibrarySlice> = (set) => ({
  libraryClips: [],
  librarySearch: '',
  libraryVoice: '',
  libraryFavouritesOnly: false,
  libraryError: null,
  setLibraryClips: (libraryClips) => set({ libraryClips, libraryError: null }),
  setLibraryFilter: (patch) =>
    set((s) => ({ librarySearch: patch.search ?? s.librarySearch, libraryVoice: patch.voice ?? s.libraryVoice, libraryFavouritesOnly: patch.favouritesOnly ?? s.libraryFavouritesOnly })),
  replaceLibraryClip: (clip) =>
    set((s) => ({ libraryClips: s.libraryFavouritesOnly && !clip.favourite ? s.libraryClips.filter((c) => c.id !== clip.id) : s.libraryClips.map((c) => (c.id === clip.id ? clip : c)) })),
  setLibraryError: (libraryError) => set({ libraryError }),
});
