// @vitest-environment jsdom
// The Speak screen against an in-memory bridge: text + voice + Generate on one screen, the request
// carries the screen's own text and the voice settings, the result shows what the engine reported
// it used (not the form), seed keep / new random, speaker previews made once, Ctrl+Enter in the box.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { setBridge } from '../../ipc/client';
import { resetStore, useStudioStore } from '../../store/store';
import type { StudioBridge } from '../../../src-shared/ipc-contract';
import type { ModelInfo, SamplingParams, SynthesisRequest, SynthesisResult, VoiceInfo } from '../../../src-shared/synthesis';
import type { SavedVoice } from '../../../src-shared/contract/voices';
import type { ModelEntry } from '../../../src-shared/contract/models';
import { SpeakPanel as SpeakPanelAlone } from './SpeakPanel';
import { SavedVoicesPanel } from '../voice-library/SavedVoicesPanel';
import { clearPreviewCache } from './speak-actions';
import { clearField, typeKeys } from '../../testing/type-keys';

const DEFAULTS: SamplingParams = { doSample: true, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05, subtalkerDoSample: true, subtalkerTemperature: 0.9, subtalkerTopK: 50, subtalkerTopP: 1, maxNewTokens: 2048 };
const VOICES = ['vivian', 'ryan', 'aiden'].map((name) => ({ name, description: `${name} voice`, nativeLanguage: 'english', dialect: null }));
const MODEL: ModelInfo = { id: 'm1', displayName: 'Tiny', path: '/x', kind: 'custom_voice', size: '0b6', synthetic: true, supportsInstruct: false, voices: VOICES, languages: ['english', 'chinese'], defaultParams: DEFAULTS, sampleRateHz: 24_000, modelHash: 'h' };

const savedVoice = (id: string, name: string, kind: SavedVoice['kind'], size: string): SavedVoice => ({
  id, name, kind, createdAtMs: 1, model: { id: `made-${size}`, kind: kind === 'clone' ? 'base' : 'voice_design', size }, description: kind === 'design' ? 'calm' : null, cloneMode: kind === 'clone' ? 'xvector' : null, clip: null, warnings: [],
});
const ANNA = savedVoice('v-00000000000a', 'Anna', 'clone', '0b6');
const BORIS = savedVoice('v-00000000000b', 'Boris', 'clone', '1b7');
const NARRATOR = savedVoice('v-00000000000c', 'Narrator', 'design', '1b7');
const BASE_0B6: ModelInfo = { ...MODEL, id: 'base-0b6', displayName: 'Tiny Base', kind: 'base', voices: [] };

function fakeBridge(loaded: { model: ModelInfo; voices: VoiceInfo[]; saved: SavedVoice[] } = { model: MODEL, voices: VOICES, saved: [] }): { bridge: StudioBridge; syntheses: SynthesisRequest[]; clips: unknown[] } {
  const syntheses: SynthesisRequest[] = [];
  const clips: unknown[] = [];
  const bridge: StudioBridge = {
    invoke: async (channel, request) => {
      if (channel === 'studio:tts.synthesize') {
        const req = request as SynthesisRequest;
        syntheses.push(req);
        // The engine reports what it used: here it answers with its own seed to prove the screen shows the engine's word.
        const result: SynthesisResult = {
          requestId: req.requestId, sampleRateHz: 24_000, numSamples: 2400, pcm: new Float32Array(2400).fill(0.1),
          timings: { numPromptTokens: 5, numFrames: 10, queueWaitMs: 1, latencyFirstAudioMs: 20, latencyTotalMs: 50, audioDurationMs: 100, rtf: 0.5 },
          effectiveParams: { ...DEFAULTS, ...req.params, seed: req.seed, voice: req.voice, language: req.language === 'auto' ? 'english' : req.language },
          warnings: [], truncated: false, modelHash: 'h', marks: [], trace: null, turnSpans: [{ turnIndex: 0, startSample: 0, endSample: 2400 }],
        };
        return { ok: true, value: result as never };
      }
      if (channel === 'studio:library.saveClip') {
        const { clip } = request as { clip: Record<string, unknown> };
        clips.push(clip);
        return { ok: true, value: { ...clip, id: `clip-${clips.length}`, createdAtMs: 1, numSamples: 2400, durationMs: 100 } as never };
      }
      const answers: Record<string, unknown> = { 'studio:engine.modelInfo': loaded.model, 'studio:tts.listVoices': loaded.voices, 'studio:models.list': [], 'studio:voices.list': loaded.saved };
      return { ok: true, value: answers[channel] as never };
    },
    on: () => () => {},
  };
  return { bridge, syntheses, clips };
}

/** The Speak screen as the app shell composes it (app/area-panels.tsx): with the voice library's panel. */
const SpeakPanel = () => <SpeakPanelAlone voiceLibrary={<SavedVoicesPanel />} />;

describe('SpeakPanel', () => {
  let fake: ReturnType<typeof fakeBridge>;
  beforeEach(() => {
    resetStore();
    clearPreviewCache();
    fake = fakeBridge();
    setBridge(fake.bridge);
  });
  afterEach(() => {
    cleanup();
    setBridge(null);
  });

  it('speaks the screen’s own text with the chosen voice and seed, and shows what the engine used', async () => {
    render(<SpeakPanel />);
    const speaker = (await screen.findByTestId('speak-speaker')) as HTMLSelectElement;
    await waitFor(() => expect(speaker.options).toHaveLength(3));
    fireEvent.change(speaker, { target: { value: 'aiden' } });
    fireEvent.change(screen.getByTestId('speak-seed'), { target: { value: '1234' } });
    fireEvent.change(screen.getByTestId('speak-input'), { target: { value: 'Good morning.' } });
    expect(screen.getByTestId('speak-will-use').textContent).toBe('will use Aiden · seed 1234');
    fireEvent.click(screen.getByTestId('speak-generate'));

    await screen.findByTestId('speak-result');
    expect(fake.syntheses).toHaveLength(1);
    expect(fake.syntheses[0]).toMatchObject({ input: 'Good morning.', inputFormat: 'text', voice: 'aiden', seed: 1234, stream: true });
    expect(screen.getByTestId('speak-used-voice').textContent).toBe('Aiden'); // the speaker's display name, as the Timeline shows it
    expect(screen.getByTestId('speak-used-seed').textContent).toBe('1234');
    expect(screen.getByTestId('speak-used').textContent).toContain('language english');
    // Filed in the Library under the voice that was used.
    expect(fake.clips[0]).toMatchObject({ voice: 'aiden', seed: 1234, input: 'Good morning.' });
    // And first in the take history, as Take 1 with what the engine used, its audio at hand.
    const [take] = useStudioStore.getState().speakTakes;
    expect(take).toMatchObject({ takeNumber: 1, input: 'Good morning.', kept: false, used: { voice: 'aiden', seed: 1234 } });
    expect(useStudioStore.getState().speakTakeAudio[take.takeId]?.pcm.length).toBe(2400);
    expect(screen.getAllByTestId('speak-take')).toHaveLength(1);
    // The Timeline's document is not touched.
    expect(useStudioStore.getState().baseLayout).toBeNull();
  });

  it('keeps the seed by default and draws a new one each time when asked', async () => {
    render(<SpeakPanel />);
    await screen.findByText('Tiny', { exact: false });
    fireEvent.change(screen.getByTestId('speak-seed'), { target: { value: '77' } });
    fireEvent.click(screen.getByTestId('speak-generate'));
    await waitFor(() => expect(fake.syntheses).toHaveLength(1));
    await waitFor(() => expect((screen.getByTestId('speak-generate') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('speak-generate'));
    await waitFor(() => expect(fake.syntheses).toHaveLength(2));
    expect(fake.syntheses.map((r) => r.seed)).toEqual([77, 77]);

    fireEvent.click(screen.getByTestId('speak-seed-random'));
    expect(screen.getByTestId('speak-will-use').textContent).toContain('seed new random');
    await waitFor(() => expect((screen.getByTestId('speak-generate') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('speak-generate'));
    await waitFor(() => expect(fake.syntheses).toHaveLength(3));
    const drawn = fake.syntheses[2].seed;
    expect(drawn).not.toBe(77);
    await waitFor(() => expect(screen.getByTestId('speak-used-seed').textContent).toBe(String(drawn)));
    expect(useStudioStore.getState().voiceSettings.seed).toBe(drawn); // the field shows the seed that was used
  });

  it('previews a speaker with a short line, synthesised once and not saved; Ctrl+Enter in the box speaks', async () => {
    render(<SpeakPanel />);
    const speaker = (await screen.findByTestId('speak-speaker')) as HTMLSelectElement;
    await waitFor(() => expect(speaker.options).toHaveLength(3));
    fireEvent.change(speaker, { target: { value: 'vivian' } });
    fireEvent.click(screen.getByTestId('speak-preview'));
    await waitFor(() => expect(fake.syntheses).toHaveLength(1));
    expect(fake.syntheses[0]).toMatchObject({ voice: 'vivian', inputFormat: 'text', stream: false });
    await waitFor(() => expect((screen.getByTestId('speak-preview') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('speak-preview'));
    await new Promise((r) => setTimeout(r, 20));
    expect(fake.syntheses).toHaveLength(1); // replayed from memory
    expect(fake.clips).toHaveLength(0);

    fireEvent.keyDown(screen.getByTestId('speak-input'), { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(fake.syntheses).toHaveLength(2));
    expect(fake.syntheses[1].voice).toBe('vivian');
  });

  it('offers only the speakers the loaded model can speak', async () => {
    const optionLabels = (select: HTMLSelectElement) => Array.from(select.options).map((o) => `${o.textContent}${o.disabled ? ' (disabled)' : ''}`);
    // A CustomVoice model: its own speakers; no cloned or designed voice.
    setBridge(fakeBridge({ model: MODEL, voices: VOICES, saved: [ANNA, BORIS, NARRATOR] }).bridge);
    const { unmount } = render(<SpeakPanel />);
    const speaker = (await screen.findByTestId('speak-speaker')) as HTMLSelectElement;
    await waitFor(() => expect(useStudioStore.getState().savedVoices).toHaveLength(3));
    expect(optionLabels(speaker)).toEqual(['Vivian — english', 'Ryan — english', 'Aiden — english']);
    unmount();

    // A 0.6B Base model: the voice cloned with a 0.6B Base model only; the one picked before stays visible, disabled, with the reason.
    resetStore();
    setBridge(fakeBridge({ model: BASE_0B6, voices: [], saved: [ANNA, BORIS, NARRATOR] }).bridge);
    useStudioStore.getState().updateVoiceSettings({ voice: BORIS.id });
    render(<SpeakPanel />);
    const baseSpeaker = (await screen.findByTestId('speak-speaker')) as HTMLSelectElement;
    await waitFor(() => expect(optionLabels(baseSpeaker)).toEqual(['Boris — not on this model (disabled)', 'Anna — cloned']));
    expect(screen.getByTestId('speak-speaker-unavailable').textContent).toContain('Boris cannot speak on the loaded model: cloned with a 1.7B Base model');
    fireEvent.change(baseSpeaker, { target: { value: ANNA.id } });
    expect(screen.queryByTestId('speak-speaker-unavailable')).toBeNull();
    expect(optionLabels(baseSpeaker)).toEqual(['Anna — cloned']);
  });

  it('names an imported model after its folder, not the engine’s build-folder hash', async () => {
    const built = { ...MODEL, id: 'local--my-checkpoint-1a2b3c4d', displayName: '3f9a0c1d2e4b5a69-v7-fp16', synthetic: false };
    const entry: ModelEntry = { id: built.id, displayName: built.displayName, kind: 'installed', status: 'ready', synthetic: false, sizeBytes: 1, summary: '', capabilities: [], repo: null, localPath: '/home/me/models/my-checkpoint' };
    const fake = fakeBridge({ model: built, voices: VOICES, saved: [] });
    setBridge({ ...fake.bridge, invoke: async (channel, request) => (channel === 'studio:models.list' ? { ok: true, value: [entry] as never } : fake.bridge.invoke(channel, request)) });
    render(<SpeakPanel />);
    await waitFor(() => expect(screen.getByTestId('speak-model').textContent).toBe('my-checkpoint (local folder)'));
  });
  it('uses a typed seed even after "new random seed each time" was on, and shows 042 as 42', async () => {
    render(<SpeakPanel />);
    await screen.findByText('Tiny', { exact: false });
    fireEvent.click(screen.getByTestId('speak-seed-random'));
    expect(useStudioStore.getState().seedMode).toBe('random');
    const seed = screen.getByTestId('speak-seed') as HTMLInputElement;
    clearField(seed);
    typeKeys(seed, '042');
    fireEvent.blur(seed);
    expect(seed.value).toBe('42');
    expect(useStudioStore.getState().seedMode).toBe('keep');
    expect((screen.getByTestId('speak-seed-random') as HTMLInputElement).checked).toBe(false);
    fireEvent.click(screen.getByTestId('speak-generate'));
    await waitFor(() => expect(fake.syntheses).toHaveLength(1));
    expect(fake.syntheses[0].seed).toBe(42);
  });
  it('disables Generate with the reason on a Base model with no cloned voice, and enables it once one fits', async () => {
    const base = fakeBridge({ model: BASE_0B6, voices: [], saved: [NARRATOR] });
    setBridge(base.bridge);
    render(<SpeakPanel />);
    await screen.findByTestId('speak-blocked');
    const generate = screen.getByTestId('speak-generate') as HTMLButtonElement;
    await waitFor(() => expect(generate.disabled).toBe(true));
    expect(screen.getByTestId('speak-blocked').textContent).toContain('Tiny Base is a Base model: it speaks only cloned voices, and none fits it yet');
    expect(generate.getAttribute('aria-describedby')).toBe('speak-blocked');
    // Ctrl+Enter in the text box does not send it either
    fireEvent.keyDown(screen.getByTestId('speak-input'), { key: 'Enter', ctrlKey: true });
    expect(base.syntheses).toHaveLength(0);

    act(() => useStudioStore.getState().setSavedVoices([ANNA, NARRATOR]));
    expect(screen.getByTestId('speak-blocked').textContent).toContain('Pick one under Saved voices (Anna)');
    fireEvent.change(screen.getByTestId('speak-speaker'), { target: { value: ANNA.id } });
    expect(screen.queryByTestId('speak-blocked')).toBeNull();
    expect(generate.disabled).toBe(false);
  });
});
