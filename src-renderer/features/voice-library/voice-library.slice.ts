/**
 * The saved voices the Speak screen offers beside the model's speakers, the one the user asked to
 * delete (hidden, and deleted for good once its undo window passes), and the last library error.
 */
import type { StateCreator } from 'zustand';
import type { SavedVoice } from '../../../src-shared/contract/voices';
import { fieldSetters } from '../../store/field-setters';

/** How long a deleted voice can be brought back before it is deleted in the library. */
export const VOICE_UNDO_MS = 6000;

export interface VoiceLibrarySlice {
  savedVoices: SavedVoice[];
  /** Deleted in the UI, not yet in the library: Undo brings it back. */
  pendingVoiceDelete: SavedVoice | null;
  voiceLibraryError: string | null;
  /** 'clone' or 'design' while the library makes a voice. */
  voiceLibraryBusy: 'clone' | 'design' | null;
  setSavedVoices(voices: SavedVoice[]): void;
  setPendingVoiceDelete(voice: SavedVoice | null): void;
  setVoiceLibraryError(message: string | null): void;
  setVoiceLibraryBusy(busy: 'clone' | 'design' | null): void;
}

export const createVoiceLibrarySlice: StateCreator<VoiceLibrarySlice, [], [], VoiceLibrarySlice> = (set) => ({
  savedVoices: [],
  pendingVoiceDelete: null,
  voiceLibraryError: null,
  voiceLibraryBusy: null,
  ...fieldSetters(set, ['savedVoices', 'pendingVoiceDelete', 'voiceLibraryError', 'voiceLibraryBusy']),
});
