// @vitest-environment jsdom
// Voice panel against an in-memory bridge: speakers, defaults with reset, the instruct reason, the dice.
import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useStudioStore } from '../../store/store';
import { installScriptedBridge } from '../../testing/scripted-bridge';
import { resetBetweenTests } from '../../testing/reset-between-tests';
import type { ModelInfo, SamplingParams } from '../../../src-shared/synthesis';
import { SAMPLING_PARAM_LIMITS } from '../../../src-shared/sampling-limits';
import { clearField, typeKeys } from '../../testing/type-keys';
import { VoicePanel } from './VoicePanel';

const DEFAULTS: SamplingParams = { doSample: true, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05, subtalkerDoSample: true, subtalkerTemperature: 0.9, subtalkerTopK: 50, subtalkerTopP: 1, maxNewTokens: 2048 };
const VOICES = ['vivian', 'serena', 'uncle_fu', 'dylan', 'eric', 'ryan', 'aiden', 'ono_anna', 'sohee'].map((name) => ({ name, description: `${name} voice`, nativeLanguage: 'english', dialect: null }));
const MODEL: ModelInfo = { id: 'm1', displayName: 'Tiny', path: '/x', kind: 'custom_voice', size: '0b6', synthetic: true, supportsInstruct: false, voices: VOICES, languages: ['english', 'chinese'], defaultParams: { ...DEFAULTS, minNewTokens: 2 } as SamplingParams, sampleRateHz: 24_000, modelHash: 'h' };

describe('VoicePanel', () => {
  resetBetweenTests();
  beforeEach(() => {
    installScriptedBridge({ 'studio:engine.modelInfo': MODEL, 'studio:tts.listVoices': VOICES, 'studio:models.list': [] });
  });

  it('lists the nine speakers and labels the synthetic model as noise', async () => {
    render(<VoicePanel />);
    await waitFor(() => expect(screen.getAllByRole('radio')).toHaveLength(9));
    expect(screen.getByTestId('model-synthetic-hint').textContent).toMatch(/random weights/);
    fireEvent.click(screen.getByRole('radio', { name: /sohee/ }));
    expect(useStudioStore.getState().voiceSettings.voice).toBe('sohee');
  });

  it('starts from the checkpoint defaults without unknown keys and resets after an edit', async () => {
    render(<VoicePanel />);
    const temperature = (await screen.findByLabelText('Temperature')) as HTMLInputElement;
    expect(useStudioStore.getState().voiceSettings.params).toEqual(DEFAULTS);
    fireEvent.change(temperature, { target: { value: '0.5' } });
    expect(useStudioStore.getState().voiceSettings.params?.temperature).toBe(0.5);
    fireEvent.click(screen.getByRole('button', { name: /Reset to the checkpoint/ }));
    expect(useStudioStore.getState().voiceSettings.params).toEqual(DEFAULTS);
  });

  it('disables instruct with the reason and rolls a new seed with the dice', async () => {
    render(<VoicePanel />);
    await screen.findByTestId('instruct-reason');
    expect((screen.getByLabelText('Instruct') as HTMLTextAreaElement).disabled).toBe(true);
    expect(screen.getByTestId('instruct-reason').textContent).toMatch(/does not take instructions/);
    const dice = screen.getByRole('button', { name: 'Random seed' });
    // drawn as inline SVG, not an emoji that headless Chromium and many Linux desktops lack
    expect(dice.querySelector('svg[aria-hidden="true"]')).not.toBeNull();
    expect(dice.textContent).not.toMatch(/\p{Extended_Pictographic}/u);
    const seeds = new Set<number>();
    for (let i = 0; i < 5; i++) {
      fireEvent.click(screen.getByRole('button', { name: 'Random seed' }));
      seeds.add(useStudioStore.getState().voiceSettings.seed);
    }
    // five rolls out of 2^31 values: at least two distinct seeds unless the dice is broken
    expect(seeds.size).toBeGreaterThan(1);
  });
  it('keeps Temperature when the field is cleared (not 0, which is greedy) and types 0.7 as 0.7', async () => {
    render(<VoicePanel />);
    const temperature = (await screen.findByLabelText('Temperature')) as HTMLInputElement;
    clearField(temperature);
    expect(useStudioStore.getState().voiceSettings.params?.temperature ?? DEFAULTS.temperature).toBe(0.9);
    typeKeys(temperature, '0.7');
    expect(temperature.value).toBe('0.7');
    expect(useStudioStore.getState().voiceSettings.params?.temperature).toBe(0.7);
    clearField(temperature);
    fireEvent.blur(temperature);
    expect(temperature.value).toBe('0.7');
  });

  it('bounds the sampling fields by the shared table the engine checks', async () => {
    render(<VoicePanel />);
    const temperature = (await screen.findByLabelText('Temperature')) as HTMLInputElement;
    expect(temperature.getAttribute('aria-valuemax')).toBe(String(SAMPLING_PARAM_LIMITS.temperature.max));
    expect(temperature.getAttribute('aria-valuemin')).toBe(String(SAMPLING_PARAM_LIMITS.temperature.min));
    const topK = screen.getByLabelText('Top-k') as HTMLInputElement;
    clearField(topK);
    typeKeys(topK, '9999');
    fireEvent.blur(topK);
    expect(useStudioStore.getState().voiceSettings.params?.topK).toBe(SAMPLING_PARAM_LIMITS.topK.max);
  });

  it('shows speakers by a proper name: uncle_fu as Uncle Fu', async () => {
    render(<VoicePanel />);
    await waitFor(() => expect(screen.getAllByRole('radio')).toHaveLength(9));
    const names = Array.from(document.querySelectorAll('.speaker-name')).map((n) => n.textContent);
    expect(names).toContain('Uncle Fu');
    expect(names).toContain('Ono Anna');
  });
  it('uses a typed seed: typing one turns "new random seed each time" off', async () => {
    useStudioStore.getState().setSeedMode('random');
    render(<VoicePanel />);
    const seed = (await screen.findByLabelText('Seed')) as HTMLInputElement;
    clearField(seed);
    typeKeys(seed, '777');
    expect(useStudioStore.getState().voiceSettings.seed).toBe(777);
    expect(useStudioStore.getState().seedMode).toBe('keep');
  });
});
