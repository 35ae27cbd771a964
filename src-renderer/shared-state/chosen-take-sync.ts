/**
 * Timeline take choices told to the Library: a Timeline edit (choose, revert, undo, redo; from the
 * Timeline, its takes list or the shortcuts) is run, then each turn whose chosen take it changed is
 * recorded on the base clip, so the Library's entry shows the same choice.
 */
import { CHANNELS } from '../../src-shared/ipc-contract';
import { call } from '../ipc/client';
import { useStudioStore } from '../store/store';
import { changedChoices } from './library-takes-sync';

/**
 * Tells the library which take a Timeline turn now uses (the base clip's own audio, or a take
 * clip), so the clip's entry shows the same choice. Quiet when the base clip is not in the library.
 */
export async function recordChosenTake(turnIndex: number): Promise<void> {
  const s = useStudioStore.getState();
  const baseClipId = s.baseLayout?.clipId;
  const turn = s.turns.find((t) => t.turnIndex === turnIndex);
  const take = turn?.takes.find((k) => k.takeId === turn.chosenTakeId);
  if (!baseClipId || !take) return;
  await call(CHANNELS.updateClip, { id: baseClipId, chooseTake: { turnIndex, takeId: take.clipId === baseClipId ? null : take.clipId } }).then(
    (clip) => useStudioStore.getState().replaceLibraryClip(clip),
    () => undefined,
  );
}

/** Runs a Timeline edit (choose, revert, undo, redo), then tells the library each turn whose chosen take it changed. */
export async function withChosenTakeSync(edit: () => void): Promise<void> {
  const before = useStudioStore.getState().turns;
  edit();
  await Promise.all(changedChoices(before, useStudioStore.getState().turns).map((turnIndex) => recordChosenTake(turnIndex)));
}
