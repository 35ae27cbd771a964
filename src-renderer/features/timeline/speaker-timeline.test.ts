// The speaker-aware Timeline: regions named and coloured by speaker (one colour each, in order of
// first appearance), fit-to-width zoom, the out-of-date mark, and a project that comes back from
// its file or from the Library's re-open with the same takes, voices and gap edits.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridge } from '../../ipc/client';
import { resetStore, useStudioStore } from '../../store/store';
import { installScriptedBridge, type ScriptedBridge } from '../../testing/scripted-bridge';
import type { ClipRecord } from '../../../src-shared/contract/library';
import type { ProjectDocument, ProjectTurn } from '../../../src-shared/contract/projects';
import { SPEAKER_COLORS, fitZoomPxPerS, speakerColors, speakerRegions, staleAudioReason, turnVoice } from './speaker-regions';
import { applyProjectDocument, toProjectDocument } from '../../shared-state/project-document';
import { reopenClip, reopenWouldReplaceWork } from '../library/library-actions';

const turn = (turnIndex: number, voice: string | undefined): ProjectTurn => ({
  turnIndex,
  takes: [{ takeId: `k${turnIndex}`, clipId: 'c1', seed: 1, startSample: 0, endSample: 10, createdAtMs: 1, ...(voice ? { voice } : {}) }],
  chosenTakeId: `k${turnIndex}`,
  previousTakeId: null,
});

describe('speaker colours and regions', () => {
  it('gives each speaker one colour, in order of first appearance, the same on every turn', () => {
    const colors = speakerColors(['ryan', 'vivian', 'ryan', 'serena']);
    expect([...colors.entries()]).toEqual([
      ['ryan', SPEAKER_COLORS[0]],
      ['vivian', SPEAKER_COLORS[1]],
      ['serena', SPEAKER_COLORS[2]],
    ]);
  });

  it('names regions by speaker in time order and colours a speaker the same each time', () => {
    const voices: Record<number, string> = { 0: 'ryan', 1: 'uncle_fu', 2: 'ryan' };
    const regions = speakerRegions(
      [
        { turnIndex: 2, startSample: 48_000, endSample: 72_000 },
        { turnIndex: 0, startSample: 0, endSample: 12_000 },
        { turnIndex: 1, startSample: 24_000, endSample: 36_000 },
      ],
      24_000,
      (i) => voices[i],
      (v) => (v === 'uncle_fu' ? 'Uncle Fu' : v[0].toUpperCase() + v.slice(1)),
    );
    expect(regions.map((r) => [r.id, r.label, r.startS, r.endS])).toEqual([
      ['turn-0', 'Ryan', 0, 0.5],
      ['turn-1', 'Uncle Fu', 1, 1.5],
      ['turn-2', 'Ryan', 2, 3],
    ]);
    expect(regions[0].color).toBe(regions[2].color);
    expect(regions[0].color).not.toBe(regions[1].color);
    expect(regions[2].title).toBe('Turn 3 · Ryan');
  });

  it("hears a turn in its chosen take's voice, else the span's, else the clip's", () => {
    expect(turnVoice(turn(0, 'vivian'), 'ryan', 'aiden')).toBe('vivian');
    expect(turnVoice(turn(0, undefined), 'ryan', 'aiden')).toBe('ryan');
    expect(turnVoice(turn(0, undefined), undefined, 'aiden')).toBe('aiden');
  });
});

describe('fit to width', () => {
  it('shows a 14 s clip in 1,400 px at 100 px/s, within the zoom limits', () => {
    const limits = { min: 10, max: 2000 };
    expect(fitZoomPxPerS(1400, 14, limits)).toBe(100);
    expect(fitZoomPxPerS(1400, 600, limits)).toBe(10);
    expect(fitZoomPxPerS(1400, 0.1, limits)).toBe(2000);
    expect(fitZoomPxPerS(0, 14, limits)).toBe(10);
  });
});

describe('stale audio', () => {
  const made = { input: '<speak>Hello.</speak>', inputFormat: 'ssml' as const };
  it('is current while the document is the one the audio was made from (ends trimmed)', () => {
    expect(staleAudioReason({ text: '<speak>Hello.</speak>\n', format: 'ssml' }, made)).toBeNull();
    expect(staleAudioReason({ text: 'anything', format: 'ssml' }, undefined)).toBeNull();
  });
  it('is out of date after the text or the format changed', () => {
    expect(staleAudioReason({ text: '<speak>Hello there.</speak>', format: 'ssml' }, made)).toMatch(/changed after this audio was made/);
    expect(staleAudioReason({ text: '<speak>Hello.</speak>', format: 'text' }, made)).toMatch(/plain text/);
  });
});

const SPANS = [
  { turnIndex: 0, startSample: 0, endSample: 100, voice: 'ryan' },
  { turnIndex: 1, startSample: 150, endSample: 240, voice: 'vivian' },
];
const CLIP = {
  id: 'c1', title: 'Dialogue', input: '<speak>…</speak>', inputFormat: 'ssml', voice: 'ryan', language: 'english', seed: 7, instruct: null, params: {}, modelHash: 'h',
  sampleRateHz: 24_000, createdAtMs: 1, durationMs: 10, favourite: false, voices: ['ryan', 'vivian'], numSamples: 240, turnSpans: SPANS, takeOf: null, numTakes: 0, chosenTakes: {},
} as unknown as ClipRecord;

describe('project round trip', () => {
  const EDITED: ProjectTurn[] = [
    { ...turn(0, 'ryan'), edit: { trimStartMs: 0, trimEndMs: 0, gapBeforeMs: null, gainDb: 0 } },
    {
      turnIndex: 1,
      takes: [
        { takeId: 'k1', clipId: 'c1', seed: 7, startSample: 150, endSample: 240, createdAtMs: 1, voice: 'vivian', label: 'Take 1' },
        { takeId: 'k1b', clipId: 't1', seed: 9, startSample: 0, endSample: 90, createdAtMs: 2, voice: 'vivian', label: 'Take 2' },
      ],
      chosenTakeId: 'k1b',
      previousTakeId: 'k1',
      edit: { trimStartMs: 0, trimEndMs: 0, gapBeforeMs: 750, gainDb: -3 },
    },
  ];
  let files: Record<string, ProjectDocument>;
  let bridge: ScriptedBridge;
  beforeEach(() => {
    resetStore();
    files = {};
    bridge = installScriptedBridge({
      'studio:library.getClip': ({ id }) => (id === 'c1' ? CLIP : { ...CLIP, id, voice: 'vivian', turnSpans: [] }),
      'studio:library.readClipAudio': ({ id }) => ({ sampleRateHz: 24_000, pcm: new Float32Array(id === 'c1' ? 240 : 90) }),
      'studio:projects.list': () => Object.keys(files).map((path) => ({ path, name: files[path].name, savedAtMs: 1, baseClipId: files[path].baseClipId })),
      'studio:projects.open': ({ path }) => ({ path, project: files[path] }),
    });
  });
  afterEach(() => setBridge(null));

  it('keeps every take, voice, choice and gap edit through save and open', async () => {
    useStudioStore.getState().setBaseClip(CLIP, null, [], () => 'x');
    useStudioStore.getState().setTimeline({ baseLayout: useStudioStore.getState().baseLayout, turns: EDITED });
    const saved = JSON.parse(JSON.stringify(toProjectDocument())) as ProjectDocument;
    resetStore();
    await applyProjectDocument(saved, '/p/dialogue.json');
    expect(useStudioStore.getState().turns).toEqual(EDITED);
    expect(useStudioStore.getState().baseLayout?.clipId).toBe('c1');
  });

  it("re-opens a clip from the Library as the saved project built on it, edits and voices intact", async () => {
    const chosenInLibrary = { ...CLIP, chosenTakes: { 1: 't1' } } as ClipRecord;
    useStudioStore.getState().setBaseClip(CLIP, null, [], () => 'x');
    useStudioStore.getState().setTimeline({ baseLayout: useStudioStore.getState().baseLayout, turns: EDITED });
    files['/p/other.json'] = { ...toProjectDocument(), id: 'other', baseClipId: 'elsewhere', turns: [] };
    files['/p/dialogue.json'] = JSON.parse(JSON.stringify(toProjectDocument())) as ProjectDocument;
    resetStore();
    await reopenClip(chosenInLibrary);
    const s = useStudioStore.getState();
    expect(s.area).toBe('timeline');
    expect(s.projectPath).toBe('/p/dialogue.json');
    expect(s.turns).toEqual(EDITED);
    expect(s.turns[1].edit?.gapBeforeMs).toBe(750);
    // Found by the list, not by opening every file (an open is remembered among recent projects).
    expect(bridge.requestsTo('studio:projects.open')).toEqual([{ path: '/p/dialogue.json' }]);
  });

  it('re-opens a clip with no project with each turn in its own voice, not the first speaker', async () => {
    await reopenClip(CLIP);
    const voices = useStudioStore.getState().turns.map((t) => t.takes[0].voice);
    expect(voices).toEqual(['ryan', 'vivian']);
  });

  it('re-opening the clip the open project is built on keeps its edits and takes the Library\'s choice', async () => {
    useStudioStore.getState().setEditorText(CLIP.input); // the document the clip was made from
    useStudioStore.getState().setBaseClip(CLIP, null, [], () => 'x');
    useStudioStore.getState().setTimeline({ baseLayout: useStudioStore.getState().baseLayout, turns: EDITED });
    await reopenClip({ ...CLIP, chosenTakes: { 1: 't1' } } as ClipRecord);
    expect(useStudioStore.getState().turns).toEqual(EDITED);
    expect(useStudioStore.getState().area).toBe('timeline');
    await reopenClip(CLIP); // the Library went back to the clip's own audio for turn 2
    const turn1 = useStudioStore.getState().turns[1];
    expect([turn1.chosenTakeId, turn1.previousTakeId, turn1.edit?.gapBeforeMs]).toEqual(['k1', 'k1b', 750]);
  });

  it('asks before re-opening the open project\'s own clip over an edited document, and then brings the clip\'s document back', async () => {
    useStudioStore.getState().setEditorText(CLIP.input);
    useStudioStore.getState().setBaseClip(CLIP, null, [], () => 'x');
    expect(reopenWouldReplaceWork(useStudioStore.getState(), CLIP)).toBe(false);
    useStudioStore.getState().setEditorText('<speak>My unsaved script</speak>');
    expect(reopenWouldReplaceWork(useStudioStore.getState(), CLIP)).toBe(true);
    await reopenClip(CLIP);
    expect(useStudioStore.getState().editorText).toBe(CLIP.input);
  });
});
