// @vitest-environment jsdom
// Speak's take history on screen: each take with its waveform and settings; A/B says which take is
// sounding (and the row shows it), B takes over from A; Keep marks a take kept; Use puts its text
// and settings back into the form; a take the Library lost says so instead of a waveform.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useStudioStore } from '../../store/store';
import { resetBetweenTests } from '../../testing/reset-between-tests';
import { installScriptedBridge } from '../../testing/scripted-bridge';
import { stopPcm } from '../../components/pcm-player';
import type { SpeakTake } from './speak-takes';
import type { SavedVoice } from '../../../src-shared/contract/voices';
import { SpeakTakes } from './SpeakTakes';
import { waveformPeaks } from '../../components/TakeWaveform';

const USED = { doSample: true, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05, subtalkerDoSample: true, subtalkerTemperature: 0.9, subtalkerTopK: 50, subtalkerTopP: 1, maxNewTokens: 2048, voice: 'uncle_fu', language: 'english' };

function fields(id: string, seed: number, input = `words of ${id}`): Omit<SpeakTake, 'takeNumber' | 'kept'> {
  return { takeId: id, createdAtMs: 1_000, input, inputFormat: 'text', instruct: '', used: { ...USED, seed }, modelId: 'tiny', sampleRateHz: 24_000, durationMs: 1000, rtf: 0.1 };
}

/** Web Audio as far as pcm-player uses it: a clock the test moves, sources that end when stopped. */
class FakeAudioContext {
  static now = 0;
  static started: { offsetS: number }[] = [];
  state = 'running';
  destination = {};
  get currentTime() {
    return FakeAudioContext.now;
  }
  createBuffer(_channels: number, length: number, rate: number) {
    return { duration: length / rate, copyToChannel: () => undefined };
  }
  createBufferSource() {
    const source = {
      buffer: null as unknown,
      onended: null as null | (() => void),
      connect: () => undefined,
      start: (_when: number, offsetS: number) => void FakeAudioContext.started.push({ offsetS }),
      stop: () => source.onended?.(),
    };
    return source;
  }
}

describe('SpeakTakes', () => {
  resetBetweenTests();
  beforeEach(() => {
    FakeAudioContext.now = 0;
    FakeAudioContext.started = [];
    vi.stubGlobal('AudioContext', FakeAudioContext);
    const s = useStudioStore.getState();
    s.addSpeakTake(fields('clip-a', 11), { sampleRateHz: 24_000, pcm: new Float32Array(24_000).fill(0.2) });
    s.addSpeakTake(fields('clip-b', 22), { sampleRateHz: 24_000, pcm: new Float32Array(24_000).fill(0.4) });
  });
  afterEach(() => {
    stopPcm();
    vi.unstubAllGlobals();
  });

  it('lists every take newest first with its waveform, voice and seed', () => {
    render(<SpeakTakes />);
    const rows = screen.getAllByTestId('speak-take');
    expect(rows.map((r) => within(r).getByTestId('speak-take-name').textContent)).toEqual(['Take 2', 'Take 1']);
    expect(within(rows[0]).getByTestId('speak-take-used').textContent).toContain('Uncle Fu · english · seed 22');
    expect(within(rows[1]).getByTestId('take-waveform').querySelector('path')?.getAttribute('d')).toMatch(/^M0\.5 /);
  });

  it('names a saved voice by its name and a deleted one as deleted, as the Library does', () => {
    const s = useStudioStore.getState();
    const inVoice = (id: string, voice: string) => ({ ...fields(id, 33), used: { ...USED, seed: 33, voice } });
    s.addSpeakTake(inVoice('clip-c', 'v-0123456789ab'), { sampleRateHz: 24_000, pcm: new Float32Array(240) });
    s.addSpeakTake(inVoice('clip-d', 'v-ffffffffffff'), { sampleRateHz: 24_000, pcm: new Float32Array(240) });
    useStudioStore.setState({ savedVoices: [{ id: 'v-0123456789ab', name: 'Anna Reads' } as SavedVoice] });
    render(<SpeakTakes />);
    const used = screen.getAllByTestId('speak-take-used').map((u) => u.textContent ?? '');
    expect(used[0]).toMatch(/^v-ffffffffffff \(deleted voice\) · english/);
    expect(used[1]).toMatch(/^Anna Reads · english/);
  });

  it('says which take is sounding while A and then B play, B from where A was', async () => {
    render(<SpeakTakes />);
    fireEvent.click(screen.getByTestId('speak-compare-start'));
    expect(screen.getByTestId('speak-ab-sounding').textContent).toBe('Nothing sounding');
    fireEvent.click(screen.getByTestId('speak-play-a'));
    await waitFor(() => expect(screen.getByTestId('speak-ab-sounding').textContent).toBe('Sounding: A — Take 1'));
    const [rowB, rowA] = screen.getAllByTestId('speak-take');
    expect(rowA.getAttribute('data-sounding')).toBe('true');
    expect(rowB.getAttribute('data-sounding')).toBe('false');
    expect(screen.getByTestId('speak-compare-a').getAttribute('data-sounding')).toBe('true');
    expect(screen.getByTestId('speak-play-a').getAttribute('aria-pressed')).toBe('true');

    FakeAudioContext.now = 0.4;
    fireEvent.click(screen.getByTestId('speak-play-b'));
    await waitFor(() => expect(screen.getByTestId('speak-ab-sounding').textContent).toBe('Sounding: B — Take 2'));
    expect(rowA.getAttribute('data-sounding')).toBe('false');
    expect(rowB.getAttribute('data-sounding')).toBe('true');
    expect(within(rowB).getByTestId('speak-take-sounding')).toBeTruthy();
    // A had played 0.4 s when B took over; B starts there.
    expect(FakeAudioContext.started.map((s) => s.offsetS)).toEqual([0, 0.4]);

    fireEvent.click(within(rowB).getByTestId('speak-take-play'));
    await waitFor(() => expect(screen.getByTestId('speak-ab-sounding').textContent).toBe('Nothing sounding'));
  });

  it('keeps a take and uses its text and settings again', () => {
    render(<SpeakTakes />);
    const rowA = screen.getAllByTestId('speak-take')[1];
    fireEvent.click(within(rowA).getByTestId('speak-take-keep'));
    expect(useStudioStore.getState().speakTakes.find((t) => t.takeId === 'clip-a')?.kept).toBe(true);
    expect(within(rowA).getByTestId('speak-take-keep').getAttribute('aria-pressed')).toBe('true');
    expect((within(rowA).getByTestId('speak-take-remove') as HTMLButtonElement).disabled).toBe(true);

    useStudioStore.getState().setSeedMode('random');
    fireEvent.click(within(rowA).getByTestId('speak-take-use'));
    const s = useStudioStore.getState();
    expect([s.speakText, s.voiceSettings.voice, s.voiceSettings.seed, s.seedMode]).toEqual(['words of clip-a', 'uncle_fu', 11, 'keep']);
  });

  it('reads a take’s audio from the Library after a reload and says when the Library lost it', async () => {
    useStudioStore.getState().restoreSpeakTakes([{ ...fields('gone', 3), takeNumber: 1, kept: false }, { ...fields('there', 4), takeNumber: 2, kept: false }], 3);
    installScriptedBridge({
      'studio:library.readClipAudio': ({ id }) => {
        if (id === 'gone') throw Object.assign(new Error('no clip gone'), { code: 'not-found' });
        return { sampleRateHz: 24_000, pcm: new Float32Array(480).fill(0.3) };
      },
    });
    render(<SpeakTakes />);
    await waitFor(() => expect(screen.getAllByTestId('take-waveform')).toHaveLength(1));
    expect(screen.getByTestId('take-audio-missing').textContent).toContain('No longer in the Library');
  });
});

describe('waveformPeaks', () => {
  it('takes the loudest sample of each slice', () => {
    const pcm = new Float32Array([0.1, -0.5, 0.2, 0.3, 0, -0.9, 0.05, 0.05]);
    expect([...waveformPeaks(pcm, 4)].map((p) => Number(p.toFixed(2)))).toEqual([0.5, 0.3, 0.9, 0.05]);
    expect([...waveformPeaks(new Float32Array(0), 3)]).toEqual([0, 0, 0]);
  });
});
