/**
 * The export service of the studio contract: the UI's audio goes to main in chunks (each fits
 * one WebSocket message) and comes back encoded in any AudioFormat by the same encoders as the
 * HTTP API's response_format. An export belongs to the caller that started it. Types and names only.
 */
import type { AudioFormat, OutputLoudness } from '../audio-format';

export const EXPORT_CHANNELS = Object.freeze({
  appendExportAudio: 'studio:export.appendAudio',
  encodeExportAudio: 'studio:export.encodeAudio',
} as const);

/** Samples per appendExportAudio call: 1 MiB of float PCM, 1.4 MB as base64 on the WebSocket bridge (its limit is 2 MiB). */
export const EXPORT_CHUNK_MAX_SAMPLES = 262_144;

export interface ExportEncodeRequest {
  /** The id given to every appendExportAudio call of this export; the export is consumed by this call. */
  exportId: string;
  sampleRateHz: number;
  format: AudioFormat;
  /** mp3, opus and aac only. */
  bitrateKbps?: number;
  /** Normalise the whole export to this (one gain under the true-peak ceiling) before encoding; absent: as sent. */
  loudness?: OutputLoudness;
}

export interface ExportedAudio {
  bytes: Uint8Array;
  contentType: string;
  /** Without the dot. */
  fileExtension: string;
  /** The file's rate: the PCM's, unless the codec needed another (opus at 44.1 kHz is written at 48 kHz). */
  sampleRateHz: number;
}

export interface ExportApi {
  /** Adds the next chunk of an export's mono PCM; starts the export on its first chunk. */
  [EXPORT_CHANNELS.appendExportAudio]: { request: { exportId: string; pcm: Float32Array }; response: { numSamples: number } };
  [EXPORT_CHANNELS.encodeExportAudio]: { request: ExportEncodeRequest; response: ExportedAudio };
}

export interface ExportEvents {}
