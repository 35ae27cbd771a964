// @vitest-environment jsdom
// Buttons that need the studio host are off while it is away, and say why (their title, and
// aria-describedby on the shell's connection notice): Start of the benchmark and of a render, and
// the voice library's Clone; every action of the Library, a turn's Export (encoded in main; WAV
// float stays on) and a finished run's exports. They come back on when the host answers again.
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useStudioStore } from '../store/store';
import { resetBetweenTests } from '../testing/reset-between-tests';
import { installScriptedBridge } from '../testing/scripted-bridge';
import { CONNECTION_NOTICE_ID } from '../ipc/connection';
import { BenchPanel } from '../features/bench/BenchPanel';
import { RenderPanel } from '../features/render/RenderPanel';
import { SavedVoicesPanel } from '../features/voice-library/SavedVoicesPanel';
import type { ModelInfo } from '../../src-shared/synthesis';
import type { ClipRecord } from '../../src-shared/contract/library';
import { LibraryPanel } from '../features/library/LibraryPanel';
import { TurnTakes } from '../features/timeline/TurnTakes';

const CLIP = { id: 'c1', title: 'Good morning', input: 'Good morning', inputFormat: 'text', voice: 'aiden', language: 'english', seed: 7, instruct: null, params: { temperature: 0.9, topK: 50, topP: 1 }, modelHash: 'abcdef123456', timings: { latencyFirstAudioMs: 10, latencyTotalMs: 20, rtf: 0.5 }, sampleRateHz: 24_000, turnSpans: [{ turnIndex: 0, startSample: 0, endSample: 240 }], createdAtMs: 1, numSamples: 240, durationMs: 10, voices: ['aiden'], favourite: false, numTakes: 1, chosenTakes: {} } as unknown as ClipRecord;
const DONE_RUN = { runId: '20261207-034000-abcdef13', status: 'done', startedAtMs: 0, finishedAtMs: 1, input: { variants: [{ name: 'before', target: 'inproc' }], workloads: ['plain'], clientCounts: [2], windowMs: 3_000, numPasses: 1 }, summary: [], passes: [], error: null };

/** Each button is off and names the reason, on the shell's notice. */
function expectBlocked(buttons: HTMLElement[]): void {
  for (const b of buttons) {
    expect(b).toHaveProperty('disabled', true);
    expect(b.getAttribute('title')).toMatch(/^Disconnected from the studio host \(the host does not answer\)/);
    expect(b.getAttribute('aria-describedby')).toBe(CONNECTION_NOTICE_ID);
  }
}

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

  it("turn off every Library action, a turn's Export and a finished run's exports, and turn them on again", async () => {
    installScriptedBridge({ 'studio:library.listClips': [CLIP], 'studio:voices.list': [], 'studio:bench.listRuns': [DONE_RUN], 'studio:projects.list': [] }, () => null);
    useStudioStore.getState().addClip(CLIP, { sampleRateHz: 24_000, pcm: new Float32Array(240) });
    useStudioStore.getState().setBaseClip(CLIP, { turns: [{ turnIndex: 0, voice: 'aiden' }], loudnessMeasuredLufs: null, loudnessFinalLufs: null, truePeakFinalDbtp: null } as never, [], () => 't1');
    useStudioStore.setState({ benchRunId: DONE_RUN.runId, connection: { state: 'disconnected', reason: 'the host does not answer' } });
    const Turn = () => {
      const turn = useStudioStore((s) => s.turns[0]);
      return <ol>{turn && <TurnTakes turn={turn} sampleRateHz={24_000} region={null} onPlayRegion={() => {}} exportLabel="MP3" onExport={() => {}} />}</ol>;
    };
    render(
      <>
        <LibraryPanel />
        <Turn />
        <BenchPanel />
      </>,
    );
    const library = await screen.findByTestId('library-table');
    await waitFor(() => expect(screen.getAllByRole('button', { name: /^Export (JSON|Markdown|HTML)$/ })).toHaveLength(3));
    const libraryButtons = [
      screen.getByRole('button', { name: 'Refresh' }),
      ...['Mark Good morning as favourite', 'Rename Good morning', 'Play Good morning', 'Re-open Good morning in the editor', 'Download Good morning as WAV', 'Delete Good morning'].map((name) => screen.getByRole('button', { name })),
      screen.getByTestId('clip-takes-toggle'),
    ];
    expect(libraryButtons.every((b) => library.contains(b) || b.textContent === 'Refresh')).toBe(true);
    const exports = [screen.getByRole('button', { name: 'Export turn 1 as MP3' }), ...screen.getAllByRole('button', { name: /^Export (JSON|Markdown|HTML)$/ })];
    expectBlocked([...libraryButtons, ...exports]);
    // WAV float is written in this window, so it needs no host
    expect(screen.getByRole('button', { name: 'Export turn 1 as WAV float' })).toHaveProperty('disabled', false);

    act(() => useStudioStore.setState({ connection: { state: 'connected' } }));
    for (const b of [...libraryButtons, ...exports]) {
      expect(b).toHaveProperty('disabled', false);
      expect(b.getAttribute('aria-describedby')).toBeNull();
    }
  });
});
