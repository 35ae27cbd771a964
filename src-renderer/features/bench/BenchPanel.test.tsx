// @vitest-environment jsdom
// The Benchmark form, typed key by key as a user types: client counts as a list, the window in
// seconds from a cleared field, passes; and the voice picker offers only what the loaded model speaks.
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useStudioStore } from '../../store/store';
import { installScriptedBridge } from '../../testing/scripted-bridge';
import { resetBetweenTests } from '../../testing/reset-between-tests';
import { clearField, typeKeys } from '../../testing/type-keys';
import type { ModelInfo, SamplingParams } from '../../../src-shared/synthesis';
import type { SavedVoice } from '../../../src-shared/contract/voices';
import { BenchPanel } from './BenchPanel';

resetBetweenTests();

const DEFAULTS = { doSample: true, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05, subtalkerDoSample: true, subtalkerTemperature: 0.9, subtalkerTopK: 50, subtalkerTopP: 1, maxNewTokens: 2048 } as SamplingParams;
const BASE: ModelInfo = { id: 'base-0b6', displayName: 'Tiny Base', path: '/x', kind: 'base', size: '0b6', synthetic: false, supportsInstruct: false, voices: [], languages: ['english'], defaultParams: DEFAULTS, sampleRateHz: 24_000, modelHash: 'h' };
const saved = (id: string, name: string, kind: SavedVoice['kind'], size: string): SavedVoice => ({
  id, name, kind, createdAtMs: 1, model: { id: `made-${size}`, kind: kind === 'clone' ? 'base' : 'voice_design', size }, description: kind === 'design' ? 'calm' : null, cloneMode: kind === 'clone' ? 'xvector' : null, clip: null, warnings: [],
});

function renderBench(savedVoices: SavedVoice[] = []) {
  installScriptedBridge({ 'studio:bench.listRuns': [], 'studio:voices.list': savedVoices });
  render(<BenchPanel />);
}

describe('BenchPanel form', () => {
  it('reads Clients typed key by key as 1, 2, 4 (three runs, not one of 124 clients)', () => {
    renderBench();
    const clients = screen.getByLabelText('Client counts') as HTMLInputElement;
    clearField(clients);
    typeKeys(clients, '1, 2, 4');
    expect(clients.value).toBe('1, 2, 4');
    expect(useStudioStore.getState().benchForm.clientCounts).toEqual([1, 2, 4]);
    fireEvent.blur(clients);
    expect(clients.value).toBe('1, 2, 4');
  });

  it('takes a window of 5 s typed into a cleared field as 5 s, not 15', () => {
    renderBench();
    const windowS = screen.getByLabelText('Window seconds') as HTMLInputElement;
    clearField(windowS);
    expect(windowS.value).toBe('');
    typeKeys(windowS, '5');
    expect(windowS.value).toBe('5');
    expect(useStudioStore.getState().benchForm.windowMs).toBe(5_000);
  });

  it('keeps passes within the shared limit', () => {
    renderBench();
    const passes = screen.getByLabelText('Passes') as HTMLInputElement;
    clearField(passes);
    typeKeys(passes, '12');
    fireEvent.blur(passes);
    // BENCH_RUN_LIMITS.numPasses.max is 10
    expect(useStudioStore.getState().benchForm.numPasses).toBe(10);
    expect(passes.value).toBe('10');
  });

  it('offers only the saved voices the loaded model can speak, and says when it can speak none', async () => {
    useStudioStore.setState({ modelInfo: BASE, voices: [] });
    renderBench([saved('v-00000000000a', 'Anna', 'clone', '0b6'), saved('v-00000000000c', 'Narrator', 'design', '1b7')]);
    const picker = screen.getByTestId('bench-voice') as HTMLSelectElement;
    await within(picker).findByText(/Anna/);
    const labels = Array.from(picker.options).map((o) => o.textContent);
    expect(labels.some((l) => l?.includes('Narrator'))).toBe(false);
    // the protocol's default speaker is not on a Base model
    expect(picker.options[0].disabled).toBe(true);
    expect(picker.options[0].textContent).toContain('not on this model');
  });

  it('names the default speaker as every screen does ("Ryan", not "ryan")', () => {
    renderBench();
    const picker = screen.getByTestId('bench-voice') as HTMLSelectElement;
    expect(picker.options[0].textContent).toBe('default (Ryan)');
    expect(picker.options[0].value).toBe('');
  });

  it('names a run spoken in a saved voice by the voice\'s name, not its id', async () => {
    const anna = saved('v-00000000000a', 'Anna', 'clone', '0b6');
    const run = { runId: '20261207-034000-abcdef13', status: 'done', startedAtMs: 0, finishedAtMs: 1, input: { variants: [{ name: 'before', target: 'inproc' }], workloads: ['plain'], clientCounts: [2], windowMs: 3_000, numPasses: 1, voice: anna.id }, summary: [], passes: [], error: null };
    installScriptedBridge({ 'studio:bench.listRuns': [run], 'studio:voices.list': [anna] });
    useStudioStore.setState({ benchRunId: run.runId });
    render(<BenchPanel />);
    await waitFor(() => expect(screen.getByTestId('bench-run-name').textContent).toMatch(/^before · plain · 2 clients · 3 s × 1 · Anna · /));
    expect(screen.getByTestId('bench-summary').querySelector('caption')?.textContent).toContain(' · Anna · ');
  });

  it('names the live run by its config and start time, with the phase legend and one unit per chart', async () => {
    const startedAtMs = new Date(2026, 11, 7, 3, 40).getTime();
    const run = { runId: '20261207-034000-abcdef12', status: 'running', startedAtMs, finishedAtMs: null, input: { variants: [{ name: 'before', target: 'inproc' }], workloads: ['plain'], clientCounts: [1], windowMs: 3_000, numPasses: 1 }, summary: [], passes: [], error: null };
    installScriptedBridge({ 'studio:bench.listRuns': [run], 'studio:voices.list': [] });
    useStudioStore.setState({ benchRunId: run.runId });
    render(<BenchPanel />);
    expect((await screen.findByTestId('bench-run-name')).textContent).toBe('before · plain · 1 client · 3 s × 1 · Dec 7 03:40');
    expect(screen.getByTestId('bench-phase-legend').textContent).toMatch(/warmup.*golden.*fill.*window.*drain/);
    const units = ['chart-throughput', 'chart-audio', 'chart-latency', 'chart-first-audio', 'chart-queue', 'chart-gpu', 'chart-vram'].map((id) => screen.getByTestId(id).getAttribute('data-unit'));
    expect(units).toEqual(['req/s', 'audio s/s', 's', 's', 'requests', '%', 'MiB']);
  });

  it('says the loaded model has no voice to speak when nothing fits', () => {
    useStudioStore.setState({ modelInfo: BASE, voices: [] });
    renderBench();
    expect(screen.getByTestId('bench-voice-none').textContent).toContain('clone a voice');
  });
});
