// Re-open from the Library brings the clip's takes back into the Timeline with the chosen one
// chosen; choosing, reverting, undoing and redoing there tell the Library (updateClip chooseTake).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridge } from '../../ipc/client';
import { resetStore, useStudioStore } from '../../store/store';
import { installScriptedBridge, type ScriptedBridge } from '../../testing/scripted-bridge';
import type { ClipRecord } from '../../../src-shared/contract/library';
import { reopenClip } from './library-actions';
import { withChosenTakeSync } from '../../shared-state/chosen-take-sync';

const BASE = { title: 'Story', input: '<speak>a</speak>', inputFormat: 'ssml', voice: 'ryan', language: 'english', seed: 7, instruct: null, params: {}, modelHash: 'abc', sampleRateHz: 24_000, createdAtMs: 1, durationMs: 10, favourite: false, voices: ['ryan'], chosenTakes: {} };
const SPANS = [
  { turnIndex: 0, startSample: 0, endSample: 100 },
  { turnIndex: 1, startSample: 150, endSample: 240 },
];
const CLIP = { ...BASE, id: 'c1', numSamples: 240, turnSpans: SPANS, takeOf: null, numTakes: 2, chosenTakes: { 1: 't2' } } as unknown as ClipRecord;
const TAKES = [
  { ...BASE, id: 't1', seed: 11, numSamples: 80, turnSpans: [], takeOf: { clipId: 'c1', turnIndex: 1 }, numTakes: 0 },
  { ...BASE, id: 't2', seed: 12, numSamples: 90, turnSpans: [], takeOf: { clipId: 'c1', turnIndex: 1 }, numTakes: 0 },
] as unknown as ClipRecord[];

describe('re-open with takes', () => {
  let bridge: ScriptedBridge;
  const choices = () => bridge.requestsTo('studio:library.updateClip').map((r) => (r as { chooseTake: unknown }).chooseTake);
  const read = () => bridge.requestsTo('studio:library.readClipAudio').map((r) => (r as { id: string }).id);
  beforeEach(() => {
    resetStore();
    bridge = installScriptedBridge({
      'studio:library.listClips': (query) => (query.takesOf === 'c1' ? TAKES : [CLIP]),
      'studio:library.readClipAudio': ({ id }) => ({ sampleRateHz: 24_000, pcm: new Float32Array(id === 'c1' ? 240 : 90) }),
      'studio:library.updateClip': ({ chooseTake }) => ({ ...CLIP, chosenTakes: chooseTake?.takeId ? { [chooseTake.turnIndex]: chooseTake.takeId } : {} }),
    });
  });
  afterEach(() => setBridge(null));

  const chosenClip = (turnIndex: number) => {
    const turn = useStudioStore.getState().turns.find((t) => t.turnIndex === turnIndex)!;
    return turn.takes.find((t) => t.takeId === turn.chosenTakeId)!.clipId;
  };

  it("brings the clip's takes and the chosen take into the Timeline, their audio loaded", async () => {
    await reopenClip(CLIP);
    const s = useStudioStore.getState();
    expect(s.area).toBe('timeline');
    expect(s.turns.map((t) => t.takes.map((k) => k.clipId))).toEqual([['c1'], ['c1', 't1', 't2']]);
    expect([chosenClip(0), chosenClip(1)]).toEqual(['c1', 't2']);
    expect(read().sort()).toEqual(['c1', 't1', 't2']);
    expect(Object.keys(s.clipAudio).sort()).toEqual(['c1', 't1', 't2']);
    expect(s.undoStack).toEqual([]);
    expect(choices()).toEqual([]); // opening tells the library nothing
  });

  it('tells the Library each choice, revert, undo and redo of a take in the Timeline', async () => {
    await reopenClip(CLIP);
    const s = useStudioStore.getState();
    const t1 = s.turns[1].takes[1].takeId;
    await withChosenTakeSync(() => useStudioStore.getState().chooseTake(1, t1));
    await withChosenTakeSync(() => useStudioStore.getState().revertTake(1));
    await withChosenTakeSync(useStudioStore.getState().undo);
    await withChosenTakeSync(useStudioStore.getState().redo);
    await withChosenTakeSync(() => useStudioStore.getState().setTurnEdit(0, { gainDb: 3 })); // not a choice: nothing sent
    expect(choices()).toEqual([
      { turnIndex: 1, takeId: 't1' },
      { turnIndex: 1, takeId: 't2' },
      { turnIndex: 1, takeId: 't1' },
      { turnIndex: 1, takeId: 't2' },
    ]);
    expect(useStudioStore.getState().libraryClips).toEqual([]); // replaceLibraryClip only replaces listed clips
  });

  it("sends null when the clip's own audio is chosen again", async () => {
    await reopenClip(CLIP);
    const ownTake = useStudioStore.getState().turns[1].takes[0].takeId;
    await withChosenTakeSync(() => useStudioStore.getState().chooseTake(1, ownTake));
    expect(choices()).toEqual([{ turnIndex: 1, takeId: null }]);
  });
});
