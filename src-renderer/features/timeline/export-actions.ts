/**
 * Audio export in any AudioFormat: the PCM goes to main in chunks that each fit one WebSocket
 * message (studio:export.appendAudio), main encodes it with the HTTP API's encoders
 * (studio:export.encodeAudio), optionally normalised to the user's loudness target, and the file is offered as a download.
 */
import { CHANNELS } from '../../../src-shared/ipc-contract';
import { StudioError } from '../../../src-shared/errors';
import type { AudioFormat, OutputLoudness } from '../../../src-shared/audio-format';
import { EXPORT_CHUNK_MAX_SAMPLES, type ExportedAudio } from '../../../src-shared/contract/export';
import { call } from '../../ipc/client';
import { downloadBytes } from '../../components/wav-encode';

function newExportId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `export-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** Encodes mono PCM in main; chunks are copies (slice), so IPC never clones the whole buffer per chunk. */
export async function encodeForExport(pcm: Float32Array, sampleRateHz: number, format: AudioFormat, loudness?: OutputLoudness): Promise<ExportedAudio> {
  if (pcm.length === 0) throw new StudioError('invalid-argument', 'there is no audio to export; generate a clip first', { field: 'pcm' });
  const exportId = newExportId();
  for (let start = 0; start < pcm.length; start += EXPORT_CHUNK_MAX_SAMPLES) {
    await call(CHANNELS.appendExportAudio, { exportId, pcm: pcm.slice(start, start + EXPORT_CHUNK_MAX_SAMPLES) });
  }
  return call(CHANNELS.encodeExportAudio, { exportId, sampleRateHz, format, ...(loudness ? { loudness } : {}) });
}

/** Encodes (normalised to `loudness` when given) and downloads `<baseName>.<extension>`; returns the file name. */
export async function exportAudioFile(pcm: Float32Array, sampleRateHz: number, format: AudioFormat, baseName: string, loudness?: OutputLoudness): Promise<string> {
  const file = await encodeForExport(pcm, sampleRateHz, format, loudness);
  const fileName = `${baseName}.${file.fileExtension}`;
  downloadBytes(file.bytes, fileName, file.contentType);
  return fileName;
}
