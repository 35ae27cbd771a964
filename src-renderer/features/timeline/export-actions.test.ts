// @vitest-environment jsdom
// Export from the renderer: chunks under the contract's limit, in order, copies of the PCM; then one
// encode call with the chosen format, and a download named after the project with the format's extension.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setBridge } from '../../ipc/client';
import { CHANNELS, type StudioBridge } from '../../../src-shared/ipc-contract';
import { EXPORT_CHUNK_MAX_SAMPLES } from '../../../src-shared/contract/export';
import { encodeForExport, exportAudioFile } from './export-actions';

interface Recorded {
  channel: string;
  request: Record<string, unknown>;
}

function recordingBridge(calls: Recorded[]): StudioBridge {
  return {
    invoke: async (channel, request) => {
      calls.push({ channel, request: request as Record<string, unknown> });
      if (channel === CHANNELS.encodeExportAudio) {
        return { ok: true, value: { bytes: new Uint8Array([1, 2, 3]), contentType: 'audio/mpeg', fileExtension: 'mp3', sampleRateHz: 24_000 } as never };
      }
      return { ok: true, value: { numSamples: 0 } as never };
    },
    on: () => () => {},
  };
}

describe('export actions', () => {
  afterEach(() => {
    setBridge(null);
    vi.restoreAllMocks();
  });

  it('sends the PCM in ordered chunks within the contract limit, then asks for the format', async () => {
    const calls: Recorded[] = [];
    setBridge(recordingBridge(calls));
    const numSamples = 2 * EXPORT_CHUNK_MAX_SAMPLES + 5;
    const pcm = new Float32Array(numSamples).map((_, i) => i / numSamples);
    const file = await encodeForExport(pcm, 24_000, 'mp3');
    expect(file.fileExtension).toBe('mp3');
    const appends = calls.filter((c) => c.channel === CHANNELS.appendExportAudio);
    expect(appends.map((c) => (c.request.pcm as Float32Array).length)).toEqual([EXPORT_CHUNK_MAX_SAMPLES, EXPORT_CHUNK_MAX_SAMPLES, 5]);
    // Copies, not views of the whole buffer (Electron IPC would clone all of it for every chunk).
    expect(appends.every((c) => (c.request.pcm as Float32Array).buffer.byteLength === (c.request.pcm as Float32Array).byteLength)).toBe(true);
    expect((appends[1].request.pcm as Float32Array)[0]).toBe(pcm[EXPORT_CHUNK_MAX_SAMPLES]);
    const ids = new Set(appends.map((c) => c.request.exportId));
    expect(ids.size).toBe(1);
    expect(calls.at(-1)).toEqual({ channel: CHANNELS.encodeExportAudio, request: { exportId: [...ids][0], sampleRateHz: 24_000, format: 'mp3' } });
  });

  it('downloads the file as <project>.<extension> with its content type', async () => {
    setBridge(recordingBridge([]));
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => (created.push(blob), 'blob:test'));
    URL.revokeObjectURL = vi.fn();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    expect(await exportAudioFile(new Float32Array(10), 24_000, 'mp3', 'my-project')).toBe('my-project.mp3');
    expect(clicked).toEqual(['my-project.mp3']);
    expect(created[0].type).toBe('audio/mpeg');
  });

  it('refuses an empty clip without calling main', async () => {
    const calls: Recorded[] = [];
    setBridge(recordingBridge(calls));
    await expect(encodeForExport(new Float32Array(0), 24_000, 'wav')).rejects.toMatchObject({ code: 'invalid-argument' });
    expect(calls).toEqual([]);
  });
});
