/**
 * Clip library actions: list with the current search, voice and favourites filters, play a clip,
 * rename / favourite it, re-open it in the editor (as a new project: document, voice settings and
 * the clip with its takes as the timeline; the panel asks first when that would replace unsaved
 * work), download as WAV, delete. Timeline take choices are told to the library by
 * shared-state/chosen-take-sync.ts.
 */
import { CHANNELS } from '../../../src-shared/ipc-contract';
import { toStudioError } from '../../../src-shared/errors';
import type { ClipRecord } from '../../../src-shared/contract/library';
import { call } from '../../ipc/client';
import { useStudioStore, type StudioState } from '../../store/store';
import { DEFAULT_DOCUMENT, randomId } from '../../shared-state/project-defaults';
import { hasChangesOutsideItsFile, openProject } from '../../shared-state/project-document';
import { playPcm } from '../../components/pcm-player';
import { composeTimeline, type ClipAudio } from '../../components/compose-timeline';
import type { ProjectTurn } from '../../../src-shared/contract/projects';
import { downloadBytes, encodeWav } from '../../components/wav-encode';
import { turnsWithLibraryTakes, withLibraryChoices } from '../../shared-state/library-takes-sync';
import { voicesMatching } from '../../components/voice-names';

function newId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

function fail(err: unknown): void {
  useStudioStore.getState().setLibraryError(toStudioError(err).message);
}

/**
 * Lists the clips the filters select. The search matches a clip's title or text (in the library)
 * or the name of a voice it speaks in: saved voices are recorded by id, so each voice the search
 * names is listed by voice too and the lists are merged, newest first.
 */
export async function refreshLibrary(): Promise<void> {
  const s = useStudioStore.getState();
  const favourites = s.libraryFavouritesOnly ? { favouritesOnly: true } : {};
  try {
    const byText = call(CHANNELS.listClips, {
      ...(s.librarySearch ? { search: s.librarySearch } : {}),
      ...(s.libraryVoice ? { voice: s.libraryVoice } : {}),
      ...favourites,
    });
    const byVoice = voicesMatching(s.librarySearch, s.voices, s.savedVoices).map((voice) => call(CHANNELS.listClips, { voice, ...favourites }));
    const [textHits, ...voiceHits] = await Promise.all([byText, ...byVoice]);
    const spokenIn = (c: ClipRecord) => !s.libraryVoice || c.voices.includes(s.libraryVoice);
    s.setLibraryClips(mergeNewestFirst([textHits, ...voiceHits.map((list) => list.filter(spokenIn))]));
  } catch (err) {
    fail(err);
  }
}

/** The clips of several lists, each once, newest first (the library's own order). */
export function mergeNewestFirst(lists: readonly ClipRecord[][]): ClipRecord[] {
  if (lists.length === 1) return lists[0];
  const byId = new Map<string, ClipRecord>();
  for (const c of lists.flat()) byId.set(c.id, c);
  return [...byId.values()].sort((a, b) => b.createdAtMs - a.createdAtMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/**
 * The clip as the library's choices make it: each turn with a chosen take has that take in its
 * place (the Timeline's composition: the clip's gaps, silent around a replaced turn); without
 * choices, the clip's own audio.
 */
export async function clipAudioWithTakes(clip: ClipRecord): Promise<ClipAudio> {
  const own = await call(CHANNELS.readClipAudio, { id: clip.id });
  const chosen = Object.entries(clip.chosenTakes ?? {}).map(([turn, takeId]) => ({ turnIndex: Number(turn), takeId }));
  if (chosen.length === 0) return own;
  const audio: Record<string, ClipAudio> = { [clip.id]: own };
  for (const { takeId } of chosen) audio[takeId] = await call(CHANNELS.readClipAudio, { id: takeId });
  const turns: ProjectTurn[] = clip.turnSpans.map((span) => {
    const takeId = clip.chosenTakes[span.turnIndex];
    const ownRef = { takeId: 'own', clipId: clip.id, seed: clip.seed, startSample: span.startSample, endSample: span.endSample, createdAtMs: clip.createdAtMs };
    const takes = takeId ? [ownRef, { takeId, clipId: takeId, seed: 0, startSample: 0, endSample: audio[takeId].pcm.length, createdAtMs: 0 }] : [ownRef];
    return { turnIndex: span.turnIndex, takes, chosenTakeId: takeId ?? 'own', previousTakeId: null };
  });
  const composed = composeTimeline({ clipId: clip.id, numSamples: own.pcm.length, turnSpans: clip.turnSpans }, turns, audio);
  return composed ? { sampleRateHz: composed.sampleRateHz, pcm: composed.pcm } : own;
}

/** Plays a clip as its chosen takes make it (a take id plays that take alone). */
export async function playClip(id: string): Promise<void> {
  try {
    const clip = useStudioStore.getState().libraryClips.find((c) => c.id === id);
    const audio = clip ? await clipAudioWithTakes(clip) : await call(CHANNELS.readClipAudio, { id });
    playPcm(audio.pcm, audio.sampleRateHz);
  } catch (err) {
    fail(err);
  }
}

/** Renames a clip and/or marks it a favourite; the list shows the stored result. */
export async function updateClip(id: string, patch: { title?: string; favourite?: boolean; chooseTake?: { turnIndex: number; takeId: string | null } }): Promise<void> {
  try {
    useStudioStore.getState().replaceLibraryClip(await call(CHANNELS.updateClip, { id, ...patch }));
  } catch (err) {
    fail(err);
  }
}

/**
 * True when re-opening a clip would replace work that is not in a project file: unsaved changes,
 * or a document or timeline that was never saved (a fresh, untouched project is replaced silently).
 * Re-opening the clip the open project is built on replaces nothing while its document is the clip's own.
 */
export function reopenWouldReplaceWork(s: StudioState = useStudioStore.getState(), clip?: Pick<ClipRecord, 'id' | 'input'>): boolean {
  if (clip !== undefined && isOpenAsMade(s, clip)) return false; // already open, document as made: nothing replaced
  if (hasChangesOutsideItsFile(s)) return true;
  return s.projectPath === null && (s.editorText !== DEFAULT_DOCUMENT || s.turns.length > 0);
}

/** The open project is built on this clip and its document is still the clip's (an edited one is work a re-open replaces). */
function isOpenAsMade(s: StudioState, clip: Pick<ClipRecord, 'id' | 'input'>): boolean {
  return s.baseLayout?.clipId === clip.id && s.editorText === clip.input;
}

/** The newest saved project whose timeline is built on `clipId` (the projects list names each one's clip), or null. */
async function savedProjectOf(clipId: string): Promise<string | null> {
  try {
    const files = await call(CHANNELS.listProjects, {});
    return files.find((f) => f.baseClipId === clipId)?.path ?? null;
  } catch {
    return null; // no project files here: the clip alone
  }
}

/**
 * Opens the clip in the Timeline. A clip the open project is built on is shown as it is; one a
 * saved project is built on opens that project, so takes, voices and edits (gaps, trims, gains)
 * come back exactly; either way with the takes the Library chose chosen. Otherwise it opens as a new, unsaved project named after it (the previous
 * project's file is untouched), with its takes under their turns, the takes the Library chose
 * chosen, and each turn's voice as stored with its span.
 */
export async function reopenClip(clip: ClipRecord): Promise<void> {
  try {
    // The Library's take choices are the newest (Timeline choices are told to it): applied either way.
    const chooseAsLibrary = () => {
      const s = useStudioStore.getState();
      const turns = withLibraryChoices(s.turns, clip);
      if (turns !== s.turns) s.setTimeline({ baseLayout: s.baseLayout, turns });
      s.setArea('timeline');
    };
    if (isOpenAsMade(useStudioStore.getState(), clip)) return chooseAsLibrary();
    const projectPath = await savedProjectOf(clip.id);
    if (projectPath !== null) {
      await openProject(projectPath);
      if (useStudioStore.getState().baseLayout?.clipId === clip.id) return chooseAsLibrary();
    }
    const audio = await call(CHANNELS.readClipAudio, { id: clip.id });
    const takes = clip.numTakes > 0 ? await call(CHANNELS.listClips, { takesOf: clip.id }) : [];
    const takeAudio = await Promise.all(takes.map((t) => call(CHANNELS.readClipAudio, { id: t.id })));
    const s = useStudioStore.getState();
    s.setProjectMeta({ projectId: randomId(), projectName: clip.title, projectPath: null });
    s.setEditorFormat(clip.inputFormat);
    s.setEditorText(clip.input);
    s.updateVoiceSettings({ voice: clip.voice, language: clip.language, seed: clip.seed, params: clip.params, instruct: clip.instruct ?? '' });
    s.addClip(clip, audio);
    s.setBaseClip(clip, null, [], newId);
    takes.forEach((t, i) => s.addClip(t, takeAudio[i]));
    if (takes.length > 0) s.setTimeline({ baseLayout: useStudioStore.getState().baseLayout, turns: turnsWithLibraryTakes(useStudioStore.getState().turns, takes, clip.chosenTakes ?? {}, newId) });
    s.setArea('timeline');
  } catch (err) {
    fail(err);
  }
}

export async function deleteClip(id: string): Promise<void> {
  try {
    await call(CHANNELS.deleteClip, { id });
    await refreshLibrary();
  } catch (err) {
    fail(err);
  }
}

/** Saves a clip (with its chosen takes) as a 16-bit WAV named after its title, voice and seed. */
export async function downloadClip(clip: ClipRecord): Promise<void> {
  try {
    const audio = await clipAudioWithTakes(clip);
    const name = `${clip.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'clip'}-${clip.voice}-seed${clip.seed}.wav`;
    downloadBytes(encodeWav(audio.pcm, audio.sampleRateHz, 'pcm16'), name, 'audio/wav');
  } catch (err) {
    fail(err);
  }
}

/** A clip's takes (regenerated turns), oldest first. */
export async function loadTakes(clipId: string): Promise<ClipRecord[]> {
  try {
    return await call(CHANNELS.listClips, { takesOf: clipId });
  } catch (err) {
    fail(err);
    return [];
  }
}
