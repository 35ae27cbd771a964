/**
 * The Library's takes and the Timeline's, kept the same both ways (pure parts; the Library's
 * re-open and chosen-take-sync.ts call them): a re-opened clip's takes and the Library's choices become each turn's takes, and
 * the turns whose chosen take a Timeline edit changed are found to tell the Library.
 */
import type { ClipRecord } from '../../src-shared/contract/library';
import type { ProjectTurn } from '../../src-shared/contract/projects';
import { takeNameAt } from '../components/take-name';

/**
 * `turns` (one take each, the base clip's) with the clip's stored takes appended per turn, oldest
 * first, and the take the Library chose (`chosen`: turn → take clip id) chosen; revert goes back to
 * the clip's own audio. Takes of turns the clip does not have are left out.
 */
export function turnsWithLibraryTakes(turns: ProjectTurn[], takes: readonly ClipRecord[], chosen: Readonly<Record<number, string>>, newId: () => string): ProjectTurn[] {
  return turns.map((turn) => {
    const refs = takes
      .filter((t) => t.takeOf?.turnIndex === turn.turnIndex)
      .map((t, i) => ({ takeId: newId(), clipId: t.id, seed: t.seed, startSample: 0, endSample: t.numSamples, createdAtMs: t.createdAtMs, voice: t.voice, label: takeNameAt(turn.takes.length + i) }));
    const pick = refs.find((r) => r.clipId === chosen[turn.turnIndex]);
    return { ...turn, takes: [...turn.takes, ...refs], chosenTakeId: pick?.takeId ?? turn.chosenTakeId, previousTakeId: pick ? turn.chosenTakeId : turn.previousTakeId };
  });
}

/**
 * `turns` with the take the Library chose for each turn chosen (`clip.chosenTakes`: turn → take
 * clip id; a turn not listed: the clip's own audio), where the turn has that take; everything
 * else (other takes, edits) unchanged. The same array when nothing changes.
 */
export function withLibraryChoices(turns: ProjectTurn[], clip: Pick<ClipRecord, 'id' | 'chosenTakes'>): ProjectTurn[] {
  let changed = false;
  const next = turns.map((turn) => {
    const wanted = clip.chosenTakes?.[turn.turnIndex] ?? clip.id;
    if (turn.takes.find((t) => t.takeId === turn.chosenTakeId)?.clipId === wanted) return turn;
    const pick = turn.takes.find((t) => t.clipId === wanted);
    if (!pick) return turn;
    changed = true;
    return { ...turn, chosenTakeId: pick.takeId, previousTakeId: turn.chosenTakeId };
  });
  return changed ? next : turns;
}

/** The turns whose chosen take differs between `before` and now (a turn that appeared counts). */
export function changedChoices(before: readonly ProjectTurn[], after: readonly ProjectTurn[]): number[] {
  const was = new Map(before.map((t) => [t.turnIndex, t.chosenTakeId]));
  return after.filter((t) => was.get(t.turnIndex) !== t.chosenTakeId).map((t) => t.turnIndex);
}
