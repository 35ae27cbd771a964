// @vitest-environment jsdom
// Library takes: a clip with takes shows "N takes" on its one entry; opening it lists each turn's
// original and takes (the chosen one checked), Play plays a take alone, and choosing another sends
// updateClip chooseTake and shows the library's answer.
import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { installScriptedBridge, type ScriptedBridge } from '../../testing/scripted-bridge';
import { resetBetweenTests } from '../../testing/reset-between-tests';
import type { ClipRecord } from '../../../src-shared/contract/library';
import { LibraryPanel } from './LibraryPanel';
import { clipAudioWithTakes } from './library-actions';

const BASE = { title: 'Story', input: 'x', inputFormat: 'ssml', voice: 'ryan', language: 'english', seed: 7, instruct: null, params: { temperature: 0.9, topK: 50, topP: 1 }, modelHash: 'abc', timings: { latencyFirstAudioMs: 1, latencyTotalMs: 2, rtf: 0.5 }, sampleRateHz: 24_000, createdAtMs: 1, numSamples: 240, durationMs: 1000, favourite: false };
const CLIP = { ...BASE, id: 'c1', turnSpans: [], voices: ['ryan', 'aiden'], takeOf: null, numTakes: 2, chosenTakes: { 1: 't2' } } as unknown as ClipRecord;
const TAKES = [
  { ...BASE, id: 't1', voice: 'uncle_fu', seed: 11, turnSpans: [], voices: ['uncle_fu'], takeOf: { clipId: 'c1', turnIndex: 1 }, numTakes: 0, chosenTakes: {} },
  { ...BASE, id: 't2', voice: 'aiden', seed: 12, turnSpans: [], voices: ['aiden'], takeOf: { clipId: 'c1', turnIndex: 1 }, numTakes: 0, chosenTakes: {} },
] as unknown as ClipRecord[];

describe('LibraryPanel takes', () => {
  resetBetweenTests();
  let bridge: ScriptedBridge;
  beforeEach(() => {
    bridge = installScriptedBridge({
      'studio:library.listClips': (query) => (query.takesOf ? TAKES : [CLIP]),
      'studio:library.readClipAudio': { sampleRateHz: 24_000, pcm: new Float32Array(240) },
      'studio:library.updateClip': (update) => ({ ...CLIP, chosenTakes: update.chooseTake?.takeId ? { [update.chooseTake.turnIndex]: update.chooseTake.takeId } : {} }),
    });
  });

  it('lists the takes of a turn under the one entry and chooses one', async () => {
    render(<LibraryPanel />);
    expect(await screen.findAllByTestId('library-clip')).toHaveLength(1);
    const toggle = screen.getByTestId('clip-takes-toggle');
    expect(toggle.textContent).toMatch(/^2 takes/);
    fireEvent.click(toggle);
    const turn = await screen.findByTestId('clip-turn-1');
    const radios = turn.querySelectorAll('input[type="radio"]');
    expect(radios).toHaveLength(3);
    expect((radios[2] as HTMLInputElement).checked).toBe(true);
    // Named as the Timeline names them: the turn's own audio is Take 1, its first regeneration Take 2.
    expect(turn.textContent).toContain('Take 1 · original · seed 7');
    // Speakers by the name the Timeline shows: 'Uncle Fu', not 'uncle_fu'.
    expect(turn.textContent).toContain('Take 2 · Uncle Fu · seed 11');
    expect(turn.textContent).toContain('Take 3 · Aiden · seed 12');
    expect(turn.textContent).not.toContain('uncle_fu');
    fireEvent.click(screen.getByRole('button', { name: 'Play turn 2 Take 2' }));
    await waitFor(() => expect(bridge.requestsTo('studio:library.readClipAudio')).toContainEqual({ id: 't1' }));
    fireEvent.click(radios[0]);
    await waitFor(() => expect(bridge.requestsTo('studio:library.updateClip')[0]).toEqual({ id: 'c1', chooseTake: { turnIndex: 1, takeId: null } }));
    await waitFor(() => expect((screen.getByTestId('clip-turn-1').querySelectorAll('input[type="radio"]')[0] as HTMLInputElement).checked).toBe(true));
    expect(bridge.requestsTo('studio:library.listClips').find((q) => (q as { takesOf?: string }).takesOf)).toEqual({ takesOf: 'c1' });
  });

  it('composes a clip with its chosen takes for play and download', async () => {
    const audioOf: Record<string, Float32Array> = { c1: new Float32Array(300).fill(0.1), t2: new Float32Array(50).fill(0.5) };
    installScriptedBridge({ 'studio:library.readClipAudio': ({ id }) => ({ sampleRateHz: 24_000, pcm: audioOf[id] }) });
    const spans = [
      { turnIndex: 0, startSample: 0, endSample: 100 },
      { turnIndex: 1, startSample: 120, endSample: 200 },
      { turnIndex: 2, startSample: 220, endSample: 300 },
    ];
    const own = await clipAudioWithTakes({ ...CLIP, turnSpans: spans, chosenTakes: {} });
    expect(own.pcm.length).toBe(300);
    const composed = await clipAudioWithTakes({ ...CLIP, turnSpans: spans, chosenTakes: { 1: 't2' } });
    // Turn 2's 80 samples are replaced by the take's 50; the gaps keep their lengths (silent).
    expect(composed.pcm.length).toBe(100 + 20 + 50 + 20 + 80);
    expect(composed.pcm[119]).toBe(0);
    expect(Array.from(composed.pcm.subarray(120, 170)).every((x) => x === 0.5)).toBe(true);
    expect(composed.pcm[190]).toBeCloseTo(0.1);
  });
});
