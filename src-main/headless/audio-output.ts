/**
 * Audio bytes for an HTTP response in the format a client asked for: whole files, or a stream of
 * chunks (raw bytes, or OpenAI's server-sent events with base64 audio). WAV and 16-bit PCM stream
 * as produced; formats without a streaming encoder are sent once the audio is complete.
 */
import { StudioError } from '../../src-shared/errors';
import { encodeWavBytes, floatToPcm16 } from '../engine/wav-bytes';
import { encodeWavStreamHeader } from './pcm-stream';
import type { SpeechFormat } from './speech-routes';

export const CONTENT_TYPES: Record<SpeechFormat, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg; codecs=opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** Little-endian 16-bit PCM bytes of float samples. */
export const pcm16Bytes = (pcm: Float32Array): Uint8Array => new Uint8Array(floatToPcm16(pcm).buffer);

/** A whole file of `pcm` in `format`. */
export async function encodeWhole(format: SpeechFormat, pcm: Float32Array, sampleRateHz: number): Promise<Uint8Array> {
  switch (format) {
    case 'wav':
      return encodeWavBytes(pcm, sampleRateHz, 'pcm16');
    case 'pcm':
      return pcm16Bytes(pcm);
    default:
      throw new StudioError('unsupported', `response_format '${format}' has no encoder in this build; ask for wav or pcm`, { field: 'response_format' });
  }
}

/** Incremental bytes for formats that can go out as produced; null when the format must wait for the end. */
export interface StreamEncoder {
  start(sampleRateHz: number): Uint8Array;
  push(pcm: Float32Array): Uint8Array;
  end(): Uint8Array;
}

export function createStreamEncoder(format: SpeechFormat): StreamEncoder | null {
  switch (format) {
    case 'wav':
      return { start: (rate) => encodeWavStreamHeader(rate), push: pcm16Bytes, end: () => new Uint8Array(0) };
    case 'pcm':
      return { start: () => new Uint8Array(0), push: pcm16Bytes, end: () => new Uint8Array(0) };
    default:
      return null;
  }
}
