// @vitest-environment jsdom
// The Timeline's Generate is off, with the reason under it, while the loaded model cannot speak one of
// the document's turn voices (as Speak does for its voice), and Ctrl/Cmd+Enter refuses with the same
// reason; fixing the document turns it back on.
import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { useStudioStore } from '../../store/store';
import { resetBetweenTests } from '../../testing/reset-between-tests';
import { requestGenerate } from '../../shared-state/generate-actions';
import type { ModelInfo, SamplingParams } from '../../../src-shared/synthesis';
import { GenerationPanel } from './GenerationPanel';

const DEFAULTS: SamplingParams = { doSample: true, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05, subtalkerDoSample: true, subtalkerTemperature: 0.9, subtalkerTopK: 50, subtalkerTopP: 1, maxNewTokens: 2048 };
const VOICES = ['ryan', 'vivian'].map((name) => ({ name, description: name, nativeLanguage: 'english', dialect: null }));
const MODEL: ModelInfo = { id: 'm1', displayName: 'Tiny CV', path: '/x', kind: 'custom_voice', size: '0b6', synthetic: true, supportsInstruct: false, voices: VOICES, languages: ['english'], defaultParams: DEFAULTS, sampleRateHz: 24_000, modelHash: 'h' };

describe('GenerationPanel', () => {
  resetBetweenTests();

  it("is off with the reason while a turn's voice is not on the loaded model, and on again once it is", () => {
    useStudioStore.setState({ modelInfo: MODEL, voices: VOICES, editorFormat: 'ssml', editorText: '<speak><voice name="ryan">Hi.</voice><voice name="uncle_fu">Hello.</voice></speak>' });
    useStudioStore.getState().updateVoiceSettings({ voice: 'ryan' });
    render(<GenerationPanel />);
    const generate = screen.getByTestId('generate');
    expect(generate).toHaveProperty('disabled', true);
    expect(screen.getByTestId('generate-blocked').textContent).toMatch(/^A turn's voice "uncle_fu": .+ has no speaker "uncle_fu"\. Pick one of its speakers\.$/);
    expect(generate.getAttribute('aria-describedby')).toBe('generate-voice-blocked');
    let started = true;
    act(() => {
      started = requestGenerate();
    });
    expect(started).toBe(false);
    expect(useStudioStore.getState().generateRefusal).toMatch(/^Not generated: A turn's voice "uncle_fu"/);

    act(() => useStudioStore.setState({ editorText: '<speak><voice name="ryan">Hi.</voice><voice name="vivian">Hello.</voice></speak>' }));
    expect(screen.getByTestId('generate')).toHaveProperty('disabled', false);
    expect(screen.queryByTestId('generate-blocked')).toBeNull();
  });
});
