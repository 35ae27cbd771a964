// @vitest-environment jsdom
// Library: Delete asks first (Keep leaves the clip, the second click deletes it), each clip
// downloads as a 16-bit WAV named after its title, voice and seed, rename and favourite go to the
// library and show its answer, the voices column lists every voice by the name the Timeline shows
// ('Uncle Fu', not 'uncle_fu'), and Re-open asks before it
// replaces unsaved work (and replaces an untouched document without asking).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { installScriptedBridge, type ScriptedBridge } from '../../testing/scripted-bridge';
import { resetBetweenTests } from '../../testing/reset-between-tests';
import { resetStore, useStudioStore } from '../../store/store';
import type { ClipRecord } from '../../../src-shared/contract/library';
import type { SavedVoice } from '../../../src-shared/contract/voices';
import type { VoiceInfo } from '../../../src-shared/synthesis';
import { LibraryPanel } from './LibraryPanel';

const CLIP = { id: 'c1', title: 'Good morning', input: 'Good morning', inputFormat: 'text', voice: 'aiden', language: 'english', seed: 7, instruct: null, params: { temperature: 0.9, topK: 50, topP: 1 }, modelHash: 'abcdef123456', timings: { latencyFirstAudioMs: 10, latencyTotalMs: 20, rtf: 0.5 }, sampleRateHz: 24_000, turnSpans: [], createdAtMs: 1, numSamples: 240, durationMs: 10, voices: ['aiden', 'vivian'], favourite: false } as unknown as ClipRecord;

describe('LibraryPanel', () => {
  resetBetweenTests();
  let bridge: ScriptedBridge;
  beforeEach(() => {
    bridge = installScriptedBridge({
      'studio:library.listClips': [CLIP],
      'studio:library.deleteClip': { deleted: true },
      'studio:library.readClipAudio': { sampleRateHz: 24_000, pcm: new Float32Array(240) },
      'studio:library.updateClip': (update) => ({ ...CLIP, ...(update.title ? { title: update.title } : {}), favourite: update.favourite ?? CLIP.favourite }),
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('asks before deleting a clip', async () => {
    render(<LibraryPanel />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Good morning' }));
    fireEvent.click(screen.getByRole('button', { name: 'Keep' }));
    expect(bridge.requestsTo('studio:library.deleteClip')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Delete Good morning' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete Good morning' }));
    await waitFor(() => expect(bridge.requestsTo('studio:library.deleteClip')).toEqual([{ id: 'c1' }]));
  });

  it('downloads a clip as a WAV named after it', async () => {
    const names: string[] = [];
    Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    render(<LibraryPanel />);
    fireEvent.click(await screen.findByRole('button', { name: 'Download Good morning as WAV' }));
    await waitFor(() => expect(names).toEqual(['good-morning-aiden-seed7.wav']));
    expect(bridge.requestsTo('studio:library.readClipAudio')).not.toHaveLength(0);
  });

  it('renames and favourites a clip, and lists every voice it speaks in', async () => {
    render(<LibraryPanel />);
    expect((await screen.findByTestId('clip-voices')).textContent).toContain('Aiden, Vivian');
    fireEvent.click(screen.getByRole('button', { name: 'Mark Good morning as favourite' }));
    await screen.findByRole('button', { name: 'Unmark Good morning as favourite' });
    expect(bridge.requestsTo('studio:library.updateClip')[0]).toEqual({ id: 'c1', favourite: true });
    fireEvent.click(screen.getByRole('button', { name: 'Rename Good morning' }));
    fireEvent.change(screen.getByLabelText('New clip title'), { target: { value: '  Morning take  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('clip-title').textContent).toBe('Morning take'));
    expect(bridge.requestsTo('studio:library.updateClip')).toContainEqual({ id: 'c1', title: 'Morning take' });
  });

  it('asks before Re-open replaces an edited document; an untouched one is replaced at once', async () => {
    useStudioStore.getState().setEditorText('<speak>my unsaved script</speak>');
    render(<LibraryPanel />);
    fireEvent.click(await screen.findByRole('button', { name: 'Re-open Good morning in the editor' }));
    expect(screen.getByTestId('reopen-confirm').textContent).toContain('Replace');
    fireEvent.click(screen.getByRole('button', { name: 'Keep mine' }));
    expect(useStudioStore.getState().editorText).toBe('<speak>my unsaved script</speak>');
    expect(bridge.requestsTo('studio:library.readClipAudio')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Re-open Good morning in the editor' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, re-open Good morning' }));
    await waitFor(() => expect(useStudioStore.getState().editorText).toBe('Good morning'));
    expect(useStudioStore.getState().projectName).toBe('Good morning');
    expect(useStudioStore.getState().projectPath).toBeNull();

    cleanup();
    resetStore();
    render(<LibraryPanel />);
    fireEvent.click(await screen.findByRole('button', { name: 'Re-open Good morning in the editor' }));
    expect(screen.queryByTestId('reopen-confirm')).toBeNull();
    await waitFor(() => expect(useStudioStore.getState().editorText).toBe('Good morning'));
  });

  it('shows a saved voice by its name and finds its clips when the name is searched', async () => {
    const anna = { id: 'v-0123456789ab', name: 'Anna Reads' } as SavedVoice;
    const annaClip = { ...CLIP, id: 'c2', title: 'Bedtime story', input: 'Once upon a time', voice: anna.id, voices: [anna.id], createdAtMs: 2 } as ClipRecord;
    const library = [annaClip, CLIP];
    // A library that searches title and text only and filters by recorded voice, as the clip store does.
    const searched = installScriptedBridge({
      'studio:voices.list': [anna],
      'studio:library.listClips': (q) => {
        const text = q.search?.toLowerCase();
        return library.filter((c) => (!text || `${c.title} ${c.input}`.toLowerCase().includes(text)) && (!q.voice || c.voices.includes(q.voice)));
      },
    });
    render(<LibraryPanel />);
    await waitFor(() => expect(screen.getAllByTestId('clip-voices').map((td) => td.firstChild?.textContent)).toEqual(['Anna Reads', 'Aiden, Vivian']));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search clips' }), { target: { value: 'anna' } });
    await waitFor(() => expect(screen.getAllByTestId('clip-title').map((t) => t.textContent)).toEqual(['Bedtime story']));
    expect(searched.requestsTo('studio:library.listClips')).toContainEqual({ voice: anna.id });
    // The voice filter offers it by name too.
    expect(Array.from((screen.getByRole('combobox', { name: 'Filter by voice' }) as HTMLSelectElement).options).map((o) => o.textContent)).toContain('Anna Reads');
  });

  it('names a saved voice once when the clip records it by id and by name', async () => {
    const anna = { id: 'v-0123456789ab', name: 'Anna Reads' } as SavedVoice;
    const annaClip = { ...CLIP, id: 'c3', voice: anna.id, voices: [anna.id, anna.name, 'aiden'] } as ClipRecord;
    installScriptedBridge({ 'studio:voices.list': [anna], 'studio:library.listClips': [annaClip] });
    render(<LibraryPanel />);
    await waitFor(() => expect(screen.getByTestId('clip-voices').firstChild?.textContent).toBe('Anna Reads, Aiden'));
  });

  it('shows model speakers as the Timeline does, in the voices column and the voice filter', async () => {
    const dialogue = { ...CLIP, id: 'c4', voice: 'ryan', voices: ['ryan', 'uncle_fu', 'ryan'] } as ClipRecord;
    installScriptedBridge({ 'studio:library.listClips': [dialogue] });
    const speaker = (name: string): VoiceInfo => ({ name, description: '', nativeLanguage: 'english', dialect: null });
    useStudioStore.setState({ voices: [speaker('ryan'), speaker('uncle_fu')] });
    render(<LibraryPanel />);
    await waitFor(() => expect(screen.getByTestId('clip-voices').firstChild?.textContent).toBe('Ryan, Uncle Fu'));
    const options = Array.from((screen.getByRole('combobox', { name: 'Filter by voice' }) as HTMLSelectElement).options);
    // the filter still sends the name the clips record
    expect(options.map((o) => [o.value, o.textContent])).toEqual([['', 'All voices'], ['ryan', 'Ryan'], ['uncle_fu', 'Uncle Fu']]);
  });
});
