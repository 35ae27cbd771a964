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

export async function decodeIndependently(format: AudioFormat, bytes: Uint8Array, pcmRateHz: number): Promise<Decoded> {
  switch (format) {
    case 'mp3': {
      const decoder = new MPEGDecoder();
      await decoder.ready;
      const out = decoder.decode(bytes);
      decoder.free();
      expect(out.errors).toEqual([]);
      return { pcm: out.channelData[0], sampleRateHz: out.sampleRate };
    }
    case 'opus': {
      const decoder = new OggOpusDecoder();
      await decoder.ready;
      const out = await decoder.decodeFile(bytes);
      decoder.free();
      expect(out.errors).toEqual([]);
      return { pcm: out.channelData[0], sampleRateHz: out.sampleRate };
    }
    case 'aac': {
      const out = await decodeAac(bytes);
      return { pcm: out.channelData[0], sampleRateHz: out.sampleRate };
    }
    case 'flac': {
      const decoder = new FLACDecoder();
      await decoder.ready;
      const out = await decoder.decodeFile(bytes);
      decoder.free();
      expect(out.errors).toEqual([]);
      return { pcm: out.channelData[0], sampleRateHz: out.sampleRate };
    }
    case 'wav': {
      const out = decodeWavIndependent(bytes);
      return { pcm: out.channelData[0], sampleRateHz: out.sampleRate };
    }
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

