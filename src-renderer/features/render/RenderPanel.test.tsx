// @vitest-environment jsdom
// Render page: lists main's renders and follows their change events (progress per chapter),
// starts a render of typed text with the voice picked there (shared with the Voice page) and the page's seed, shows retries
// and failed parts with their reasons, Cancel while running and Resume once stopped, and saves
// the queue URL (empty: this machine).
import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useStudioStore } from '../../store/store';
import { installScriptedBridge, type ScriptedBridge } from '../../testing/scripted-bridge';
import { resetBetweenTests } from '../../testing/reset-between-tests';
import type { RenderJob } from '../../../src-shared/contract/render';
import { RenderPanel } from './RenderPanel';

const JOB: RenderJob = {
  id: 'j1', title: 'Book', state: 'running', mode: 'local', createdAtMs: 1, updatedAtMs: 1, voice: 'ryan', language: 'auto', seed: 42,
  outputDir: '/data/renders/j1', numParts: 3, numDone: 0, numFailed: 0, chapters: [{ title: 'One', numDone: 0, numParts: 2 }, { title: 'Two', numDone: 0, numParts: 1 }],
  failures: [], retries: [], outputPath: null, clipId: null, durationMs: null, error: null,
};

describe('RenderPanel', () => {
  resetBetweenTests();
  let bridge: ScriptedBridge;
  const emit = (job: RenderJob) => bridge.emit('studio:render.onDidChange', job);
  beforeEach(() => {
    bridge = installScriptedBridge({
      'studio:render.list': [JOB],
      'studio:render.getQueue': { queueUrl: null },
      'studio:render.setQueue': ({ queueUrl }) => ({ queueUrl }),
      'studio:render.start': { ...JOB, id: 'j2', title: 'Typed', createdAtMs: 2 },
      'studio:render.cancel': { cancelled: true },
      'studio:render.resume': { ...JOB, updatedAtMs: 9 },
    });
  });

  it('shows progress per chapter and follows change events', async () => {
    render(<RenderPanel />);
    expect(await screen.findByLabelText('One: 0 of 2 parts')).toBeTruthy();
    act(() => emit({ ...JOB, updatedAtMs: 2, numDone: 2, chapters: [{ title: 'One', numDone: 2, numParts: 2 }, { title: 'Two', numDone: 0, numParts: 1 }] }));
    expect(screen.getByLabelText('One: 2 of 2 parts')).toBeTruthy();
    expect(screen.getByTestId('render-count').textContent).toBe('2/3 parts');
    // an older event after a newer state changes nothing
    act(() => emit({ ...JOB, updatedAtMs: 1 }));
    expect(screen.getByTestId('render-count').textContent).toBe('2/3 parts');
  });

  it('starts a render of typed text with the voice settings and the seed', async () => {
    useStudioStore.getState().updateVoiceSettings({ voice: 'vivian', language: 'english' });
    render(<RenderPanel />);
    fireEvent.change(screen.getByLabelText('Render title'), { target: { value: 'Typed' } });
    fireEvent.change(screen.getByLabelText('Document text'), { target: { value: 'One.\n\nTwo.' } });
    fireEvent.change(screen.getByLabelText('Render seed'), { target: { value: '7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start render' }));
    await waitFor(() => expect(screen.getAllByTestId('render-job')).toHaveLength(2));
    expect(bridge.requestsTo('studio:render.start')[0]).toEqual({
      source: { kind: 'text', text: 'One.\n\nTwo.', inputFormat: 'text', title: 'Typed' }, voice: 'vivian', language: 'english', seed: 7,
      loudness: { targetLufs: -16, truePeakCeilingDbtp: -1 }, // the Settings target (default here)
    });
  });

  it('picks the voice on the page: the model speakers by name, sent with the render', async () => {
    useStudioStore.setState({ voices: [{ name: 'ryan' }, { name: 'uncle_fu' }] as never });
    useStudioStore.getState().updateVoiceSettings({ voice: 'ryan' });
    render(<RenderPanel />);
    const picker = screen.getByLabelText('Render voice') as HTMLSelectElement;
    expect(Array.from(picker.options).map((o) => o.textContent)).toEqual(['Ryan', 'Uncle Fu']);
    fireEvent.change(picker, { target: { value: 'uncle_fu' } });
    expect(useStudioStore.getState().voiceSettings.voice).toBe('uncle_fu');
    fireEvent.change(screen.getByLabelText('Document text'), { target: { value: 'One.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start render' }));
    await waitFor(() => expect(bridge.requestsTo('studio:render.start')[0]).toMatchObject({ voice: 'uncle_fu' }));
  });

  it('shows retries and failed parts with reasons, cancels a running render and resumes a failed one', async () => {
    render(<RenderPanel />);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel Book' }));
    await waitFor(() => expect(bridge.requestsTo('studio:render.cancel')).not.toHaveLength(0));
    act(() => emit({ ...JOB, updatedAtMs: 3, state: 'failed', numFailed: 1, failures: [{ partIndex: 1, chapter: 0, reason: 'ssml-invalid: bad tag' }], retries: [{ partIndex: 0, attempt: 1, reason: 'engine-crashed: died' }], error: '1 of 3 parts failed' }));
    expect(screen.getByTestId('render-failures').textContent).toContain('Part 2 (chapter 1) failed: ssml-invalid: bad tag');
    expect(screen.getByText('Part 1, try 1: engine-crashed: died')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resume Book' }));
    await waitFor(() => expect(bridge.requestsTo('studio:render.resume')[0]).toEqual({ jobId: 'j1' }));
  });

  it('saves the queue URL, and an empty one as this machine', async () => {
    render(<RenderPanel />);
    fireEvent.change(await screen.findByLabelText('Render queue URL'), { target: { value: 'redis://q:6379' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(useStudioStore.getState().renderQueueUrl).toBe('redis://q:6379'));
    fireEvent.change(screen.getByLabelText('Render queue URL'), { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(useStudioStore.getState().renderQueueUrl).toBeNull());
  });
});
