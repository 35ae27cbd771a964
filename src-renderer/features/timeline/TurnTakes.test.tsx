// @vitest-environment jsdom
// Takes of one turn against an in-memory bridge: a new take sends only that turn (turnIndex) with
// the seed kept, new random or typed, streams, is filed under the turn's own voice and becomes the
// chosen, labelled take; the history lists every take with seed and voice; A/B names the takes;
// Revert tells the Library.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { setBridge } from '../../ipc/client';
import { resetStore, useStudioStore } from '../../store/store';
import type { StudioBridge } from '../../../src-shared/ipc-contract';
import type { ClipRecord } from '../../../src-shared/contract/library';
import type { SynthesisRequest, SynthesisResult } from '../../../src-shared/synthesis';
import { TurnTakes } from './TurnTakes';
import { stopPcm } from '../../components/pcm-player';

const base = { id: 'base', createdAtMs: 5, seed: 42, voice: 'ryan', numSamples: 100, turnSpans: [{ turnIndex: 0, startSample: 0, endSample: 40 }, { turnIndex: 1, startSample: 50, endSample: 100 }] } as ClipRecord;
const trace = { turns: [{ turnIndex: 0, voice: 'ryan' }, { turnIndex: 1, voice: 'vivian' }], loudnessMeasuredLufs: null, loudnessFinalLufs: null, truePeakFinalDbtp: null } as never;

function fakeBridge() {
  const syntheses: SynthesisRequest[] = [];
  const choices: unknown[] = [];
  const saved: Record<string, unknown>[] = [];
  const bridge: StudioBridge = {
    invoke: async (channel, request) => {
      if (channel === 'studio:tts.synthesize') {
        const req = request as SynthesisRequest;
        syntheses.push(req);
        const result = { requestId: req.requestId, sampleRateHz: 24_000, numSamples: 60, pcm: new Float32Array(60), timings: { numPromptTokens: 1, numFrames: 1, queueWaitMs: 0, latencyFirstAudioMs: 1, latencyTotalMs: 2, audioDurationMs: 3, rtf: 0.5 }, effectiveParams: { seed: req.seed, voice: 'vivian', language: 'english' }, warnings: [], truncated: false, modelHash: 'h', marks: [], trace: null, turnSpans: [{ turnIndex: 0, startSample: 0, endSample: 60 }] };
        return { ok: true, value: result as unknown as SynthesisResult as never };
      }
      if (channel === 'studio:library.saveClip') {
        const { clip } = request as { clip: Record<string, unknown> };
        saved.push(clip);
        return { ok: true, value: { ...clip, id: `take-clip-${saved.length}`, createdAtMs: 10 + saved.length, numSamples: 60, durationMs: 3 } as never };
      }
      if (channel === 'studio:library.updateClip') choices.push((request as { chooseTake: unknown }).chooseTake);
      return { ok: true, value: null as never };
    },
    on: () => () => {},
  };
  return { bridge, syntheses, saved, choices };
}

/**
 * Types `text` into a number field one key at a time (over its selected text, or after it), as a
 * browser does: the field's value is the
 * text typed while that is a number and '' while it is not ("-"); when the page rewrites the field
 * (a controlled input snapping back), the next key goes after what the page wrote.
 */
/** A valid floating-point number in HTML's sense: what a number field reports as its value. */
const HTML_FLOAT = /^-?(\d+(\.\d+)?|\.\d+)([eE][-+]?\d+)?$/;

function typeIntoNumberField(input: HTMLInputElement, text: string, from: 'replace' | 'append' = 'append'): void {
  let shown = from === 'replace' ? '' : input.value;
  for (const ch of text) {
    shown += ch;
    fireEvent.change(input, { target: { value: shown } });
    const reported = HTML_FLOAT.test(shown) ? shown : '';
    if (input.value !== reported) shown = input.value;
  }
}

function renderTurn(turnIndex: number) {
  const Turn = () => {
    const turn = useStudioStore((s) => s.turns[turnIndex]);
    return <ol>{turn && <TurnTakes turn={turn} sampleRateHz={24_000} region={null} onPlayRegion={() => {}} exportLabel="WAV 16-bit" onExport={() => {}} />}</ol>;
  };
  return render(<Turn />);
}

describe('TurnTakes', () => {
  let fake: ReturnType<typeof fakeBridge>;
  beforeEach(() => {
    resetStore();
    fake = fakeBridge();
    setBridge(fake.bridge);
    useStudioStore.getState().setEditorText('<speak><voice name="ryan">One.</voice><voice name="vivian">Two.</voice></speak>');
    useStudioStore.getState().addClip(base, { sampleRateHz: 24_000, pcm: new Float32Array(100) });
    useStudioStore.getState().setBaseClip(base, trace, [], () => `t${Math.random()}`);
  });
  afterEach(() => {
    cleanup();
    setBridge(null);
  });

  it('makes a take of that turn only, with the kept seed, filed under the turn’s voice, and chooses it', async () => {
    renderTurn(1);
    expect(screen.getByTestId('turn-1-uses').textContent).toBe('uses Take 1 · seed 42 · Vivian'); // the speaker as its region on the Timeline names it
    fireEvent.change(screen.getByTestId('take-seed-1'), { target: { value: 'keep' } });
    fireEvent.click(screen.getByTestId('regenerate-1'));
    await waitFor(() => expect(useStudioStore.getState().turns[1].takes).toHaveLength(2));
    expect(fake.syntheses).toHaveLength(1);
    expect(fake.syntheses[0]).toMatchObject({ turnIndex: 1, seed: 42, stream: true, inputFormat: 'ssml' });
    expect(fake.saved[0]).toMatchObject({ voice: 'vivian', title: expect.stringMatching(/^Turn 2 take · /) });
    const take = useStudioStore.getState().turns[1].takes[1];
    expect(take).toMatchObject({ clipId: 'take-clip-1', seed: 42, startSample: 0, endSample: 60, voice: 'vivian', label: 'Take 2' });
    expect(useStudioStore.getState().turns[1].chosenTakeId).toBe(take.takeId);
    expect(useStudioStore.getState().turns[0].takes).toHaveLength(1); // the other turn is untouched
    await waitFor(() => expect(screen.getByTestId('turn-1-uses').textContent).toBe('uses Take 2 · seed 42 · Vivian'));
    expect(screen.getByRole('list', { name: 'Take history of turn 2' }).querySelectorAll('li')).toHaveLength(2);
  });

  it('uses a typed seed or a new random one', async () => {
    renderTurn(0);
    fireEvent.change(screen.getByTestId('take-seed-0'), { target: { value: 'typed' } });
    fireEvent.change(screen.getByTestId('take-typed-seed-0'), { target: { value: '999' } });
    fireEvent.click(screen.getByTestId('regenerate-0'));
    await waitFor(() => expect(fake.syntheses).toHaveLength(1));
    expect(fake.syntheses[0]).toMatchObject({ turnIndex: 0, seed: 999 });
    await waitFor(() => expect((screen.getByTestId('regenerate-0') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.change(screen.getByTestId('take-seed-0'), { target: { value: 'random' } });
    fireEvent.click(screen.getByTestId('regenerate-0'));
    await waitFor(() => expect(fake.syntheses).toHaveLength(2));
    expect(fake.syntheses[1].seed).not.toBe(999);
  });

  it('takes a negative gain typed key by key ("-" then "6" is -6 dB, not +6)', () => {
    renderTurn(0);
    const gain = screen.getByTestId('gain-0') as HTMLInputElement;
    fireEvent.focus(gain);
    typeIntoNumberField(gain, '-6', 'replace');
    expect(useStudioStore.getState().turns[0].edit?.gainDb).toBe(-6);
    typeIntoNumberField(gain, '.5');
    expect(useStudioStore.getState().turns[0].edit?.gainDb).toBe(-6.5);
    fireEvent.blur(gain);
    expect(gain.value).toBe('-6.5');
  });

  it('labels A/B with the take names and keeps the one picked', async () => {
    useStudioStore.getState().addTake(1, { takeId: 'x', clipId: 'base', seed: 7, startSample: 50, endSample: 100, createdAtMs: 9, label: 'Take 2', voice: 'vivian' });
    renderTurn(1);
    fireEvent.click(screen.getByRole('button', { name: 'Compare A/B' }));
    expect(screen.getByRole('button', { name: 'Play A — Take 1' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Play B — Take 2' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Play turn 2 Take 1 alone' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep A — Take 1' }));
    expect(useStudioStore.getState().turns[1].chosenTakeId).toBe(useStudioStore.getState().turns[1].takes[0].takeId);
  });

  it('says which take is sounding while A and then B play', async () => {
    // Web Audio as far as pcm-player uses it: sources that end when stopped.
    class FakeAudioContext {
      state = 'running';
      currentTime = 0;
      destination = {};
      createBuffer = (_c: number, length: number, rate: number) => ({ duration: length / rate, copyToChannel: () => undefined });
      createBufferSource() {
        const source = { buffer: null, onended: null as null | (() => void), connect: () => undefined, start: () => undefined, stop: () => source.onended?.() };
        return source;
      }
    }
    vi.stubGlobal('AudioContext', FakeAudioContext);
    try {
      useStudioStore.getState().addTake(1, { takeId: 'x', clipId: 'base', seed: 7, startSample: 50, endSample: 100, createdAtMs: 9, label: 'Take 2', voice: 'vivian' });
      renderTurn(1);
      fireEvent.click(screen.getByRole('button', { name: 'Compare A/B' }));
      expect(screen.getByTestId('ab-sounding-1').textContent).toBe('Nothing sounding');
      fireEvent.click(screen.getByRole('button', { name: 'Play A — Take 1' }));
      expect(screen.getByTestId('ab-sounding-1').textContent).toBe('Sounding: A — Take 1');
      expect(screen.getByRole('button', { name: 'Play A — Take 1' }).getAttribute('aria-pressed')).toBe('true');
      fireEvent.click(screen.getByRole('button', { name: 'Play B — Take 2' }));
      expect(screen.getByTestId('ab-sounding-1').textContent).toBe('Sounding: B — Take 2');
      expect(screen.getByRole('button', { name: 'Play A — Take 1' }).getAttribute('aria-pressed')).toBe('false');
      expect(screen.getByRole('button', { name: 'Play turn 2 Take 2 alone' }).getAttribute('aria-pressed')).toBe('true');
      fireEvent.click(screen.getByRole('button', { name: 'End compare' }));
      expect(screen.queryByTestId('take-sounding-1')).toBeNull();
    } finally {
      stopPcm();
      vi.unstubAllGlobals();
    }
  });

  it('Revert tells the Library the take it goes back to', async () => {
    useStudioStore.getState().addTake(1, { takeId: 'x', clipId: 'take-clip-9', seed: 7, startSample: 0, endSample: 60, createdAtMs: 9, label: 'Take 2', voice: 'vivian' });
    renderTurn(1);
    fireEvent.click(screen.getByRole('button', { name: 'Revert' }));
    await waitFor(() => expect(fake.choices).toEqual([{ turnIndex: 1, takeId: null }]));
    fireEvent.click(screen.getByRole('button', { name: 'Revert' }));
    await waitFor(() => expect(fake.choices).toEqual([{ turnIndex: 1, takeId: null }, { turnIndex: 1, takeId: 'take-clip-9' }]));
  });
});
