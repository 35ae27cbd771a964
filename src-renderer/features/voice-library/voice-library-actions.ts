/**
 * The voice library from the Speak screen: clone a voice from a clip the user picked (its bytes
 * are uploaded), add more reference samples to a clone and pick the one it speaks with, design one
 * from a description, rename, and delete with an undo window (the library
 * call happens when the window ends, so Undo needs no restore). Loading the saved voices is
 * shared-state/voice-actions.ts (every screen names them).
 */
import { CHANNELS } from '../../../src-shared/ipc-contract';
import { toStudioError } from '../../../src-shared/errors';
import type { SavedVoice } from '../../../src-shared/contract/voices';
import { call } from '../../ipc/client';
import { useStudioStore } from '../../store/store';
import { loadSavedVoices } from '../../shared-state/voice-actions';
import { VOICE_UNDO_MS } from './voice-library.slice';

let pendingTimer: ReturnType<typeof setTimeout> | null = null;

function fail(err: unknown): void {
  const e = toStudioError(err);
  useStudioStore.getState().setVoiceLibraryError(`${e.message} (${e.code})`);
}

async function making(kind: 'clone' | 'design', make: () => Promise<SavedVoice>): Promise<SavedVoice | null> {
  const store = useStudioStore.getState();
  store.setVoiceLibraryBusy(kind);
  store.setVoiceLibraryError(null);
  try {
    const voice = await make();
    const s = useStudioStore.getState();
    s.setSavedVoices([voice, ...s.savedVoices.filter((v) => v.id !== voice.id)]);
    s.updateVoiceSettings({ voice: voice.id });
    return voice;
  } catch (err) {
    fail(err);
    return null;
  } finally {
    useStudioStore.getState().setVoiceLibraryBusy(null);
  }
}

/** A picked file's bytes (FileReader: every browser, Electron and jsdom have it). */
function readBytes(file: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsArrayBuffer(file);
  });
}

/**
 * Clones the voice of `file` (any common audio format) with the loaded Base model and selects it;
 * with `refText` (what the clip says) in-context, the official default, else from the x-vector alone.
 */
export function cloneVoiceFromFile(name: string, file: Blob & { name?: string }, refText = ''): Promise<SavedVoice | null> {
  return making('clone', async () => {
    const audio = await readBytes(file);
    return call(CHANNELS.cloneVoice, { name, audio, originalName: file.name ?? 'clip', ...(refText.trim() ? { refText: refText.trim() } : {}) });
  });
}

/** The library's answer in place of the voice it was (samples change the voice, not the list's order). */
function replaceVoice(voice: SavedVoice): void {
  const s = useStudioStore.getState();
  s.setSavedVoices(s.savedVoices.map((v) => (v.id === voice.id ? voice : v)));
}

/** Adds `file` as another reference sample of the cloned voice `id` (what it speaks with stays). */
export async function addVoiceSample(id: string, file: Blob & { name?: string }, refText = ''): Promise<SavedVoice | null> {
  const store = useStudioStore.getState();
  store.setVoiceLibraryBusy('clone');
  store.setVoiceLibraryError(null);
  try {
    const audio = await readBytes(file);
    const voice = await call(CHANNELS.addVoiceSample, { id, audio, originalName: file.name ?? 'clip', ...(refText.trim() ? { refText: refText.trim() } : {}) });
    replaceVoice(voice);
    return voice;
  } catch (err) {
    fail(err);
    return null;
  } finally {
    useStudioStore.getState().setVoiceLibraryBusy(null);
  }
}

/** Makes `sampleId` the sample the voice speaks with. */
export async function pickVoiceSample(id: string, sampleId: string): Promise<boolean> {
  useStudioStore.getState().setVoiceLibraryError(null);
  try {
    replaceVoice(await call(CHANNELS.useVoiceSample, { id, sampleId }));
    return true;
  } catch (err) {
    fail(err);
    return false;
  }
}

export function designVoice(name: string, description: string): Promise<SavedVoice | null> {
  return making('design', () => call(CHANNELS.designVoice, { name, description }));
}

export async function renameVoice(id: string, name: string): Promise<boolean> {
  try {
    const renamed = await call(CHANNELS.renameVoice, { id, name });
    const s = useStudioStore.getState();
    s.setSavedVoices(s.savedVoices.map((v) => (v.id === id ? renamed : v)));
    s.setVoiceLibraryError(null);
    return true;
  } catch (err) {
    fail(err);
    return false;
  }
}

/** Deletes the pending voice in the library now (the undo window ended, or another delete began). */
export async function commitVoiceDelete(): Promise<void> {
  const voice = useStudioStore.getState().pendingVoiceDelete;
  if (pendingTimer) clearTimeout(pendingTimer);
  pendingTimer = null;
  if (!voice) return;
  useStudioStore.getState().setPendingVoiceDelete(null);
  try {
    await call(CHANNELS.deleteVoice, { id: voice.id });
  } catch (err) {
    fail(err);
    await loadSavedVoices();
  }
}

/** Hides the voice at once and deletes it for good after VOICE_UNDO_MS unless undoVoiceDelete() comes first. */
export async function deleteVoiceWithUndo(id: string, undoMs = VOICE_UNDO_MS): Promise<void> {
  await commitVoiceDelete();
  const s = useStudioStore.getState();
  const voice = s.savedVoices.find((v) => v.id === id);
  if (!voice) return;
  s.setSavedVoices(s.savedVoices.filter((v) => v.id !== id));
  s.setPendingVoiceDelete(voice);
  if (s.voiceSettings.voice === id) s.updateVoiceSettings({ voice: s.voices[0]?.name ?? '' });
  pendingTimer = setTimeout(() => void commitVoiceDelete(), undoMs);
}

export function undoVoiceDelete(): void {
  const s = useStudioStore.getState();
  const voice = s.pendingVoiceDelete;
  if (!voice) return;
  if (pendingTimer) clearTimeout(pendingTimer);
  pendingTimer = null;
  s.setPendingVoiceDelete(null);
  s.setSavedVoices([...s.savedVoices, voice].sort((a, b) => b.createdAtMs - a.createdAtMs));
}
