/**
 * Decodes the bytes of a reference clip for voice cloning into mono float PCM at its own rate. The
 * container is recognised by its magic bytes, not a file name: WAV (any rate, channels, PCM/float depth)
 * through `wavefile` (wav.ts); MP3, FLAC, Ogg Vorbis and Ogg Opus through the WebAssembly builds of
 * mpg123, libFLAC, libvorbis and libopus (wasm-audio-decoders, shipped inside their npm packages).
 * Channels are averaged to mono. MP4/AAC and anything else are refused naming the conversion to do.
 */
import { StudioError } from '../../src-shared/errors';
import { decodeWav } from './wav';

export type ReferenceContainer = 'wav' | 'flac' | 'ogg' | 'mp3' | 'mp4';

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

/** The container a clip's first bytes announce, or null when unknown. */
export function sniffAudioContainer(bytes: Uint8Array): ReferenceContainer | null {
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') return 'wav';
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === 'fLaC') return 'flac';
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === 'OggS') return 'ogg';
  if (bytes.length >= 3 && ascii(bytes, 0, 3) === 'ID3') return 'mp3';
  if (bytes.length >= 2 && bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0) return 'mp3'; // MPEG frame sync
  if (bytes.length >= 8 && ascii(bytes, 4, 4) === 'ftyp') return 'mp4';
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
    allowed: ['wav', 'mp3', 'flac', 'ogg-vorbis', 'ogg-opus'],
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
      const wav = decodeWav(bytes);
      return { pcm: wav.pcm, sampleRateHz: wav.sampleRateHz, numChannels: wav.numChannels, format: 'wav' };
    }
    case 'mp3': {
      const { MPEGDecoder } = await import('mpg123-decoder');
      return runWasm(new MPEGDecoder(), (d) => d.decode(bytes), 'mp3');
    }
    case 'flac': {
      const { FLACDecoder } = await import('@wasm-audio-decoders/flac');
      return runWasm(new FLACDecoder(), (d) => d.decodeFile(bytes), 'flac');
    }
    case 'ogg': {
      const codec = sniffOggCodec(bytes);
      if (codec === 'vorbis') {
        const { OggVorbisDecoder } = await import('@wasm-audio-decoders/ogg-vorbis');
        return runWasm(new OggVorbisDecoder(), (d) => d.decodeFile(bytes), 'ogg-vorbis');
      }
      if (codec === 'opus') {
        const { OggOpusDecoder } = await import('ogg-opus-decoder');
        return runWasm(new OggOpusDecoder(), (d) => d.decodeFile(bytes), 'ogg-opus');
      }
      return unsupported(`an Ogg file with ${codec ? `${codec.toUpperCase()} audio` : 'an unknown codec'}`, `ogg-${codec ?? 'unknown'}`, 'convert it to WAV, FLAC, MP3, Ogg Vorbis or Ogg Opus (e.g. ffmpeg -i clip.ogg clip.wav)');
    }
    case 'mp4':
      return unsupported('an MP4/M4A (AAC) file', 'mp4', 'convert it to WAV, FLAC, MP3 or Ogg (e.g. ffmpeg -i clip.m4a clip.wav)');
    case null:
      throw new StudioError('invalid-argument', 'the reference clip is not a recognised audio file (WAV, MP3, FLAC, Ogg Vorbis or Ogg Opus); pick an audio file of one person speaking', {
        field: 'referenceAudio',
        value: 'unknown',
        allowed: ['wav', 'mp3', 'flac', 'ogg-vorbis', 'ogg-opus'],
      });
  }
}
