/**
 * Reads the studio's own lossy encodes back as a player would, so lossy-loudness-match.ts can measure
 * them: MP3 through mpg123 (which trims by the LAME tag's delay and padding) and Ogg Opus through
 * libopus (which drops the pre-skip), both WebAssembly builds imported on first use. AAC has no decoder
 * among the shipped dependencies, so AAC encodes are not read back. Mono: the first channel.
 */
import { StudioError } from '../../src-shared/errors';
import type { DecodedPcm } from './lossy-loudness-match';

export type CheckedLossyFormat = 'mp3' | 'opus';

export function canDecodeBack(format: string): format is CheckedLossyFormat {
  return format === 'mp3' || format === 'opus';
}

interface WasmDecoded {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
  errors: { message: string }[];
}

/** Decodes a whole file this process just encoded; any decoder error is ours, so it is an internal error. */
export async function decodeOwnEncode(format: CheckedLossyFormat, bytes: Uint8Array): Promise<DecodedPcm> {
  let out: WasmDecoded;
  if (format === 'mp3') {
    const { MPEGDecoder } = await import('mpg123-decoder');
    const decoder = new MPEGDecoder();
    await decoder.ready;
    try {
      out = decoder.decode(bytes);
    } finally {
      decoder.free();
    }
  } else {
    const { OggOpusDecoder } = await import('ogg-opus-decoder');
    const decoder = new OggOpusDecoder();
    await decoder.ready;
    try {
      out = await decoder.decodeFile(bytes);
    } finally {
      decoder.free();
    }
  }
  if (out.errors.length > 0 || out.channelData.length === 0) {
    throw new StudioError('internal', `the ${format} file just encoded does not decode (${out.errors[0]?.message ?? 'no audio'}); please report this with the request`, { format, numErrors: out.errors.length });
  }
  return { pcm: out.channelData[0].subarray(0, out.samplesDecoded), sampleRateHz: out.sampleRate };
}
