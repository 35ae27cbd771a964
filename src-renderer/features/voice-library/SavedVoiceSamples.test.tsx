// @vitest-environment jsdom
// A cloned voice's samples in the voice library: every clip listed with the one that speaks marked,
// another clip uploaded as bytes and listed, a radio that makes a sample the one the voice speaks
// with; adding is off with the reason on a model of another size; a voice from before samples
// (no samples field) shows no sample list.
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useStudioStore } from '../../store/store';
import { installScriptedBridge } from '../../testing/scripted-bridge';
import { resetBetweenTests } from '../../testing/reset-between-tests';
import type { SavedVoice, SavedVoiceSample } from '../../../src-shared/contract/voices';
import type { ModelInfo } from '../../../src-shared/synthesis';
import { SavedVoicesPanel } from './SavedVoicesPanel';

const BASE = { id: 'base', displayName: 'Tiny Base', kind: 'base', size: '0.6B', voices: [], languages: [] } as unknown as ModelInfo;
const FIRST: SavedVoiceSample = { sampleId: 's-0', clip: { originalName: 'a.mp3', fileName: 'v-0123456789ab.mp3', sizeBytes: 3, durationMs: 4200 }, cloneMode: 'xvector', warnings: [], addedAtMs: 1 };
const SECOND: SavedVoiceSample = { sampleId: 's-0000beef', clip: { originalName: 'b.wav', fileName: 'v-0123456789ab-s-0000beef.wav', sizeBytes: 9, durationMs: 9100 }, cloneMode: 'icl', warnings: ['a little quiet'], addedAtMs: 2 };
const ANNA: SavedVoice = { id: 'v-0123456789ab', name: 'Anna', kind: 'clone', createdAtMs: 1, model: { id: 'base', kind: 'base', size: '0.6B' }, description: null, cloneMode: 'xvector', clip: FIRST.clip, warnings: [], samples: [FIRST], activeSampleId: 's-0' };

resetBetweenTests();

describe('SavedVoiceSamples', () => {
  it('adds another clip as a sample and speaks with the one picked', async () => {
    const withTwo: SavedVoice = { ...ANNA, samples: [FIRST, SECOND] };
    const bridge = installScriptedBridge({
      'studio:voices.list': [ANNA],
      'studio:voices.addSample': withTwo,
      'studio:voices.useSample': { ...withTwo, activeSampleId: SECOND.sampleId, clip: SECOND.clip, cloneMode: 'icl' },
    });
    useStudioStore.setState({ modelInfo: BASE });
    render(<SavedVoicesPanel />);
    await waitFor(() => expect(screen.getAllByTestId('saved-voice-sample')).toHaveLength(1));
    expect(screen.getByTestId('saved-voice-sample').textContent?.trim()).toBe('a.mp3 · 4.2 s · speaks');

    fireEvent.change(screen.getByTestId('saved-voice-sample-file'), { target: { files: [new File([Uint8Array.of(7, 8)], 'b.wav', { type: 'audio/wav' })] } });
    fireEvent.click(screen.getByTestId('saved-voice-sample-add'));
    await waitFor(() => expect(screen.getAllByTestId('saved-voice-sample')).toHaveLength(2));
    const sent = bridge.requestsTo('studio:voices.addSample')[0] as { id: string; audio: Uint8Array; originalName: string };
    expect({ id: sent.id, audio: [...sent.audio], originalName: sent.originalName }).toEqual({ id: ANNA.id, audio: [7, 8], originalName: 'b.wav' });
    expect(screen.getAllByTestId('saved-voice-sample')[1].textContent?.trim()).toBe('b.wav · 9.1 s · in-context (a little quiet)');

    fireEvent.click(screen.getAllByTestId('saved-voice-sample-use')[1]);
    await waitFor(() => expect(useStudioStore.getState().savedVoices[0].activeSampleId).toBe(SECOND.sampleId));
    expect(bridge.requestsTo('studio:voices.useSample')).toEqual([{ id: ANNA.id, sampleId: SECOND.sampleId }]);
    expect(screen.getAllByTestId('saved-voice-sample')[1].textContent).toContain('· speaks');
    expect(screen.getByTestId(`saved-voice-${ANNA.id}`).textContent).toContain('9.1 s clip');
  });

  it('says why adding is off on a Base model of another size, and lists nothing for a voice saved before samples', async () => {
    const { samples: _s, activeSampleId: _a, ...old } = ANNA;
    installScriptedBridge({ 'studio:voices.list': [ANNA, { ...old, id: 'v-0123456789ac', name: 'Old' }] });
    useStudioStore.setState({ modelInfo: { ...BASE, size: '1.7B' } as ModelInfo });
    render(<SavedVoicesPanel />);
    await waitFor(() => expect(screen.getAllByTestId('saved-voice-samples')).toHaveLength(1));
    expect(screen.getByTestId('saved-voice-sample-add')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('saved-voice-sample-blocked').textContent).toMatch(/^Adding a sample needs the model the voice was made with: .*0.6B/);
  });
});
