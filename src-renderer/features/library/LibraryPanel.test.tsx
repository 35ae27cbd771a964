// @vitest-environment jsdom
// Library: Delete asks first (Keep leaves the clip, the second click deletes it) and each clip
// downloads as a 16-bit WAV named after its title, voice and seed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { setBridge } from '../../ipc/client';
import { resetStore } from '../../store/store';
import type { StudioBridge } from '../../../src-shared/ipc-contract';
import type { ClipRecord } from '../../../src-shared/contract/library';
import { LibraryPanel } from './LibraryPanel';

const CLIP = { id: 'c1', title: 'Good morning', input: 'Good morning', inputFormat: 'text', voice: 'aiden', language: 'english', seed: 7, instruct: null, params: { temperature: 0.9, topK: 50, topP: 1 }, modelHash: 'abcdef123456', timings: { latencyFirstAudioMs: 10, latencyTotalMs: 20, rtf: 0.5 }, sampleRateHz: 24_000, turnSpans: [], createdAtMs: 1, numSamples: 240, durationMs: 10 } as unknown as ClipRecord;

describe('LibraryPanel', () => {
  const calls: { channel: string; request: unknown }[] = [];
  beforeEach(() => {
    resetStore();
    calls.length = 0;
    const bridge: StudioBridge = {
      invoke: async (channel, request) => {
        calls.push({ channel, request });
        const answers: Record<string, unknown> = { 'studio:library.listClips': [CLIP], 'studio:library.deleteClip': { deleted: true }, 'studio:library.readClipAudio': { sampleRateHz: 24_000, pcm: new Float32Array(240) } };
        return { ok: true, value: answers[channel] as never };
      },
      on: () => () => {},
    };
    setBridge(bridge);
  });
  afterEach(() => {
    cleanup();
    setBridge(null);
    vi.restoreAllMocks();
  });

  it('asks before deleting a clip', async () => {
    render(<LibraryPanel />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Good morning' }));
    fireEvent.click(screen.getByRole('button', { name: 'Keep' }));
    expect(calls.filter((c) => c.channel === 'studio:library.deleteClip')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Delete Good morning' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete Good morning' }));
    await waitFor(() => expect(calls.filter((c) => c.channel === 'studio:library.deleteClip')).toEqual([{ channel: 'studio:library.deleteClip', request: { id: 'c1' } }]));
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
    expect(calls.some((c) => c.channel === 'studio:library.readClipAudio')).toBe(true);
  });
});
