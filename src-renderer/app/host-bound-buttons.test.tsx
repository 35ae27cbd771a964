// @vitest-environment jsdom
// Buttons that need the studio host are off while it is away, and say why (their title, and
// aria-describedby on the shell's connection notice): Start of the benchmark and of a render, and
// the voice library's Clone; they come back on when the host answers again.
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useStudioStore } from '../store/store';
import { resetBetweenTests } from '../testing/reset-between-tests';
import { installScriptedBridge } from '../testing/scripted-bridge';
import { CONNECTION_NOTICE_ID } from '../ipc/connection';
import { BenchPanel } from '../features/bench/BenchPanel';
import { RenderPanel } from '../features/render/RenderPanel';
import { SavedVoicesPanel } from '../features/voice-library/SavedVoicesPanel';
import type { ModelInfo } from '../../src-shared/synthesis';

const BASE = { id: 'base', displayName: 'Tiny Base', kind: 'base', size: '0.6B', voices: [], languages: [] } as unknown as ModelInfo;

describe('host-bound buttons', () => {
  resetBetweenTests();

  it('are off with the reason while disconnected, and on again once connected', () => {
    installScriptedBridge({ 'studio:voices.list': [], 'studio:bench.listRuns': [], 'studio:render.list': [] }, (channel) => (channel.endsWith('.list') || channel.endsWith('List') ? [] : null));
    useStudioStore.setState({ modelInfo: BASE, connection: { state: 'disconnected', reason: 'the host does not answer' } });
    render(
      <>
        <BenchPanel />
        <RenderPanel />
        <SavedVoicesPanel />
      </>,
    );
    fireEvent.change(screen.getByTestId('voice-clone-name'), { target: { value: 'Anna' } });
    fireEvent.change(screen.getByTestId('voice-clone-file'), { target: { files: [new File([Uint8Array.of(1)], 'a.wav')] } });
    const buttons = [screen.getByTestId('bench-start'), screen.getByRole('button', { name: 'Start render' }), screen.getByTestId('voice-clone-save')];
    for (const b of buttons) {
      expect(b).toHaveProperty('disabled', true);
      expect(b.getAttribute('title')).toMatch(/^Disconnected from the studio host \(the host does not answer\)/);
      expect(b.getAttribute('aria-describedby')).toBe(CONNECTION_NOTICE_ID);
    }
    act(() => useStudioStore.setState({ connection: { state: 'connected' } }));
    expect(screen.getByTestId('bench-start')).toHaveProperty('disabled', false);
    expect(screen.getByTestId('voice-clone-save')).toHaveProperty('disabled', false);
    expect(screen.getByTestId('bench-start').getAttribute('title')).toBeNull();
  });
});
