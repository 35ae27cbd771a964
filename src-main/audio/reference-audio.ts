/**
 * Decodes the bytes of a reference clip for voice cloning into mono float PCM at its own rate. The
 * container is recognised by its magic bytes and frame headers, not a file name: WAV (any rate, channels,
 * PCM/float depth) through `wavefile` (wav.ts); MP3, FLAC, Ogg Vorbis and Ogg Opus through the WebAssembly
 * builds of mpg123, libFLAC, libvorbis and libopus (wasm-audio-decoders, shipped inside their npm packages).
 * Channels are averaged to mono. AAC (ADTS or MP4/M4A) and anything else are refused naming the formats
 * that work; a clip that is cut short (clip-integrity.ts) or that a decoder reports damaged is refused too.
 */
import { StudioError } from '../../src-shared/errors';
import { flacStreamInfo, id3v2Length, isAdtsHeader, mp3Truncation, mpegFrameHeader, oggTruncation, wavTruncation } from './clip-integrity';
import { decodeWav } from './wav';

export type ReferenceContainer = 'wav' | 'flac' | 'ogg' | 'mp3' | 'aac' | 'mp4';

export interface DecodedReference {
  /** Mono: the channels' mean. */
  pcm: Float32Array;
  sampleRateHz: number;
  numChannels: number;
  /** What the clip was, e.g. 'mp3' or 'ogg-vorbis'. */
  format: 'wav' | 'mp3' | 'flac' | 'ogg-vorbis' | 'ogg-opus';
}

/** Larger uploads are refused before decoding (a 15 s clip is well under 1 MB even as float WAV at 48 kHz). */
export const MAX_REFERENCE_BYTES = 64 * 1024 * 1024;

const ascii = (bytes: Uint8Array, start: number, length: number) => new TextDecoder('latin1').decode(bytes.subarray(start, start + length));

/** What the studio decodes, for error details. */
const DECODED_FORMATS: readonly DecodedReference['format'][] = ['wav', 'mp3', 'flac', 'ogg-vorbis', 'ogg-opus'];
const DECODED_NAMES = 'WAV, FLAC, MP3, Ogg Vorbis or Ogg Opus';

/** The container a clip's first bytes announce, or null when unknown. */
export function sniffAudioContainer(bytes: Uint8Array): ReferenceContainer | null {
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') return 'wav';
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === 'fLaC') return 'flac';
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === 'OggS') return 'ogg';
  if (bytes.length >= 8 && ascii(bytes, 4, 4) === 'ftyp') return 'mp4';
  // Both start 0xFFF…: ADTS has layer bits 00, which MPEG audio reserves. Either may follow an ID3 tag.
  const frameAt = id3v2Length(bytes);
  if (isAdtsHeader(bytes, frameAt)) return 'aac';
  if (mpegFrameHeader(bytes, frameAt) || frameAt > 0) return 'mp3';
  return null;
}

/** The codec of an Ogg stream, from its first packet's signature (first page, after the segment table). */
export function sniffOggCodec(bytes: Uint8Array): 'vorbis' | 'opus' | 'flac' | 'speex' | null {
  if (bytes.length < 28) return null;
  const numSegments = bytes[26];
  const head = ascii(bytes, 27 + numSegments, 8);
  if (head.startsWith('OpusHead')) return 'opus';
  if (head.startsWith('\x01vorbis')) return 'vorbis';
  if (head.startsWith('\x7fFLAC')) return 'flac';
  if (head.startsWith('Speex')) return 'speex';
  return null;
}

function unsupported(what: string, value: string, fix: string): never {
  throw new StudioError('unsupported', `the reference clip is ${what}, which the studio does not decode; ${fix}`, {
    field: 'referenceAudio',
    value,
    allowed: [...DECODED_FORMATS],
  });
}

/** Refuses a clip whose container says part of it is missing: the decoders would return the rest silently. */
function refuseIfCut(format: DecodedReference['format'], how: string | null): void {
  if (how === null) return;
  throw new StudioError('invalid-argument', `the reference clip is cut short or damaged: ${how}; copy or export it again (a partial clip would not match its transcript)`, {
    field: 'referenceAudio',
    value: format,
  });
}

/** Mean of the channels; one channel is returned as is. */
export function mixToMono(channels: readonly Float32Array[], numSamples: number): Float32Array {
  if (channels.length === 1) return channels[0].length === numSamples ? channels[0] : channels[0].slice(0, numSamples);
  const out = new Float32Array(numSamples);
  for (const ch of channels) for (let i = 0; i < numSamples; i++) out[i] += ch[i];
  for (let i = 0; i < numSamples; i++) out[i] /= channels.length;
  return out;
}

interface WasmDecoded {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
  errors: { message: string }[];
}

/** Every wasm-audio-decoders class has this shape; `run` is decode or decodeFile. */
async function runWasm<D extends { ready: Promise<void>; free(): void }>(decoder: D, run: (d: D) => WasmDecoded | Promise<WasmDecoded>, format: DecodedReference['format']): Promise<DecodedReference> {
  await decoder.ready;
  let out: WasmDecoded;
  try {
    out = await run(decoder);
  } catch (err) {
    throw damaged(format, err instanceof Error ? err.message : String(err));
  } finally {
    decoder.free();
  }
  if (out.samplesDecoded === 0 || out.channelData.length === 0 || !(out.sampleRate > 0)) {
    throw damaged(format, out.errors[0]?.message ?? 'no audio frames in the file');
  }
  if (out.errors.length > 0) {
    const atS = (out.samplesDecoded / out.sampleRate).toFixed(1);
    throw damaged(format, `${out.errors.length} decoder error${out.errors.length === 1 ? '' : 's'}, the first "${out.errors[0].message}" after ${atS} s`);
  }
  return { pcm: mixToMono(out.channelData, out.samplesDecoded), sampleRateHz: out.sampleRate, numChannels: out.channelData.length, format };
}

function damaged(format: string, detail: string): StudioError {
  return new StudioError('invalid-argument', `the reference clip could not be decoded as ${format.toUpperCase()} (${detail.slice(0, 200)}); the file may be damaged or cut short — export it again or pick another file`, {
    field: 'referenceAudio',
    value: format,
  });
}

/** Bytes of a clip (any common format and rate) → mono float PCM at the clip's own rate. */
export async function decodeReferenceAudio(bytes: Uint8Array): Promise<DecodedReference> {
  if (bytes.byteLength > MAX_REFERENCE_BYTES) {
    throw new StudioError('payload-too-large', `the reference clip is ${(bytes.byteLength / 1048576).toFixed(0)} MB but at most ${MAX_REFERENCE_BYTES / 1048576} MB is read; cut it to 5–15 s of one person speaking`, {
      field: 'referenceAudio',
      numBytes: bytes.byteLength,
    });
  }
  const container = sniffAudioContainer(bytes);
  switch (container) {
    case 'wav': {
      refuseIfCut('wav', wavTruncation(bytes));
      const wav = decodeWav(bytes);
      return { pcm: wav.pcm, sampleRateHz: wav.sampleRateHz, numChannels: wav.numChannels, format: 'wav' };
    }
    case 'mp3': {
      refuseIfCut('mp3', mp3Truncation(bytes));
      const { MPEGDecoder } = await import('mpg123-decoder');
      return runWasm(new MPEGDecoder(), (d) => d.decode(bytes), 'mp3');
    }
    case 'flac': {
      const { FLACDecoder } = await import('@wasm-audio-decoders/flac');
      const decoded = await runWasm(new FLACDecoder(), (d) => d.decodeFile(bytes), 'flac');
      // The decoder may drop a short last frame of a whole file, so up to one block missing is not a cut.
      const info = flacStreamInfo(bytes);
      if (info?.numSamples && decoded.pcm.length < info.numSamples - info.maxBlockSize) {
        const held = (n: number) => `${(n / decoded.sampleRateHz).toFixed(1)} s`;
        refuseIfCut('flac', `it holds ${held(decoded.pcm.length)} of the ${held(info.numSamples)} its STREAMINFO announces`);
      }
      return decoded;
    }
    case 'ogg': {
      const codec = sniffOggCodec(bytes);
      if (codec === 'vorbis') {
        refuseIfCut('ogg-vorbis', oggTruncation(bytes));
        const { OggVorbisDecoder } = await import('@wasm-audio-decoders/ogg-vorbis');
        return runWasm(new OggVorbisDecoder(), (d) => d.decodeFile(bytes), 'ogg-vorbis');
      }
      if (codec === 'opus') {
        refuseIfCut('ogg-opus', oggTruncation(bytes));
        const { OggOpusDecoder } = await import('ogg-opus-decoder');
        return runWasm(new OggOpusDecoder(), (d) => d.decodeFile(bytes), 'ogg-opus');
      }
      return unsupported(`an Ogg file with ${codec ? `${codec.toUpperCase()} audio` : 'an unknown codec'}`, `ogg-${codec ?? 'unknown'}`, `convert it to ${DECODED_NAMES} (e.g. ffmpeg -i clip.ogg clip.wav)`);
    }
    case 'aac':
      return unsupported('AAC audio in an ADTS stream (.aac, as the studio exports AAC)', 'aac', `use ${DECODED_NAMES}: export the take as WAV or FLAC, or convert it (e.g. ffmpeg -i clip.aac clip.wav)`);
    case 'mp4':
      return unsupported('an MP4/M4A file (usually AAC audio)', 'mp4', `use ${DECODED_NAMES}: convert it (e.g. ffmpeg -i clip.m4a clip.wav)`);
    case null:
      throw new StudioError('invalid-argument', `the reference clip is not a recognised audio file (${DECODED_NAMES}); pick an audio file of one person speaking`, {
        field: 'referenceAudio',
        value: 'unknown',
        allowed: [...DECODED_FORMATS],
      });
  }
}
