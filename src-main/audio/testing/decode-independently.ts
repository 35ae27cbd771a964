/**
 * Test helper: decodes each response format with a decoder unrelated to our encoders (mpg123,
 * libopus via ogg-opus-decoder, FAAD2, libFLAC, an independent WAV reader), so a test checks what a
 * listener's player would hear, never just a header. Dev dependencies only; never shipped.
 */
import { expect } from 'vitest';
import { MPEGDecoder } from 'mpg123-decoder';
import { OggOpusDecoder } from 'ogg-opus-decoder';
import { FLACDecoder } from '@wasm-audio-decoders/flac';
import decodeAac from '@audio/decode-aac';
import decodeWavIndependent from '@audio/decode-wav';
import type { AudioFormat } from '../../../src-shared/audio-format';

export interface Decoded {
  pcm: Float32Array;
  sampleRateHz: number;
}

/** What the decoders give back: one Float32Array per channel; the wasm ones also list decode errors. */
interface DecodedChannels {
  channelData: Float32Array[];
  sampleRate: number;
  errors?: unknown[];
}

const firstChannel = (out: DecodedChannels): Decoded => ({ pcm: out.channelData[0], sampleRateHz: out.sampleRate });

/** A wasm-audio-decoders decoder: wait until it is ready, decode, free it; it must report no errors. */
async function decodeWasm<D extends { ready: Promise<void>; free(): void }>(decoder: D, decode: (d: D) => DecodedChannels | Promise<DecodedChannels>): Promise<Decoded> {
  await decoder.ready;
  const out = await decode(decoder);
  decoder.free();
  expect(out.errors).toEqual([]);
  return firstChannel(out);
}

export async function decodeIndependently(format: AudioFormat, bytes: Uint8Array, pcmRateHz: number): Promise<Decoded> {
  switch (format) {
    case 'mp3':
      return decodeWasm(new MPEGDecoder(), (d) => d.decode(bytes));
    case 'opus':
      return decodeWasm(new OggOpusDecoder(), (d) => d.decodeFile(bytes));
    case 'aac':
      return firstChannel(await decodeAac(bytes));
    case 'flac':
      return decodeWasm(new FLACDecoder(), (d) => d.decodeFile(bytes));
    case 'wav':
      return firstChannel(decodeWavIndependent(bytes));
    case 'pcm': {
      // Raw 16-bit little-endian: reading it is the whole decoder.
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const pcm = new Float32Array(bytes.byteLength / 2);
      for (let i = 0; i < pcm.length; i++) {
        const v = view.getInt16(i * 2, true);
        pcm[i] = v < 0 ? v / 32768 : v / 32767;
      }
      return { pcm, sampleRateHz: pcmRateHz };
    }
  }
}

