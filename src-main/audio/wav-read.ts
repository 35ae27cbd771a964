/**
 * Reads WAV files in two steps, so a caller can bound the decoded size before converting a sample
 * and then decode in slices: readWavLayout walks the RIFF chunks (what the samples are and where),
 * decodeWavFrames turns a range of frames into mono float PCM with decodeWav's scaling (wav.ts).
 * Integer PCM (8-bit unsigned, 16/24/32-bit signed) and IEEE float (32/64-bit), plain or
 * WAVE_FORMAT_EXTENSIBLE. A file cut short (its data chunk announces more than follows) is refused,
 * as reference clips are (clip-integrity.ts); a streamed WAV's unknown size is not a cut. Pure.
 */
import { StudioError } from '../../src-shared/errors';
import { wavTruncation } from './clip-integrity';

export interface WavLayout {
  sampleKind: 'int' | 'float';
  bitsPerSample: number;
  numChannels: number;
  sampleRateHz: number;
  /** Byte offset of the first frame. */
  dataOffset: number;
  /** Whole frames in the file: the data chunk's size, or the bytes present when a streamed WAV says 0 or 0xFFFFFFFF. */
  numFrames: number;
}

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_IEEE_FLOAT = 3;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;
/** More channels than any real layout (7.1.4 is 12); a header claiming more is damaged. */
const MAX_CHANNELS = 64;

function unreadable(reason: string, numBytes: number): never {
  throw new StudioError('invalid-argument', `bytes are not a readable WAV file (${reason}); export the audio as PCM WAV`, { field: 'bytes', numBytes });
}

export function readWavLayout(bytes: Uint8Array): WavLayout {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') unreadable('no RIFF/WAVE header', bytes.length);
  let fmt: { audioFormat: number; numChannels: number; sampleRateHz: number; bitsPerSample: number } | null = null;
  let data: { offset: number; numBytes: number } | null = null;
  for (let at = 12; at + 8 <= bytes.length && !(fmt && data); ) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ') {
      if (size < 16 || at + 8 + 16 > bytes.length) unreadable('a fmt chunk shorter than 16 bytes', bytes.length);
      let audioFormat = view.getUint16(at + 8, true);
      // the extensible format's sub-format GUID starts with the plain format code
      if (audioFormat === WAVE_FORMAT_EXTENSIBLE && size >= 40 && at + 8 + 26 <= bytes.length) audioFormat = view.getUint16(at + 8 + 24, true);
      fmt = { audioFormat, numChannels: view.getUint16(at + 10, true), sampleRateHz: view.getUint32(at + 12, true), bitsPerSample: view.getUint16(at + 22, true) };
    } else if (id === 'data') {
      data = { offset: at + 8, numBytes: Math.min(size, bytes.length - (at + 8)) };
    }
    at += 8 + size + (size & 1); // chunks are padded to an even size
  }
  if (!fmt) unreadable('no fmt chunk', bytes.length);
  if (!data) unreadable('no data chunk', bytes.length);
  const cut = wavTruncation(bytes);
  if (cut !== null) throw new StudioError('invalid-argument', `the WAV file is cut short: ${cut}; copy or export it again whole`, { field: 'bytes', numBytes: bytes.length });
  const { audioFormat, numChannels, sampleRateHz, bitsPerSample } = fmt;
  const sampleKind = audioFormat === WAVE_FORMAT_PCM && [8, 16, 24, 32].includes(bitsPerSample) ? 'int' : audioFormat === WAVE_FORMAT_IEEE_FLOAT && [32, 64].includes(bitsPerSample) ? 'float' : null;
  if (sampleKind === null) {
    throw new StudioError('unsupported', `WAV sample format ${bitsPerSample}-bit (audioFormat ${audioFormat}) is not supported; use 8/16/24/32-bit integer or 32/64-bit float PCM`, {
      field: 'bitDepth',
      value: `${bitsPerSample}/${audioFormat}`,
      allowed: ['8', '16', '24', '32', '32f', '64'],
    });
  }
  if (numChannels < 1 || numChannels > MAX_CHANNELS) unreadable(`${numChannels} channels`, bytes.length);
  if (sampleRateHz < 1) unreadable('a sample rate of 0 Hz', bytes.length);
  const bytesPerFrame = (bitsPerSample / 8) * numChannels;
  return { sampleKind, bitsPerSample, numChannels, sampleRateHz, dataOffset: data.offset, numFrames: Math.floor(data.numBytes / bytesPerFrame) };
}

/**
 * Decodes frames [startFrame, endFrame) into out[startFrame, endFrame) as mono: the channels' mean.
 * Integers scale as decodeWav does: negative values by 2^(bits-1), positive ones by 2^(bits-1) - 1.
 */
export function decodeWavFrames(bytes: Uint8Array, layout: WavLayout, out: Float32Array, startFrame: number, endFrame: number): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { numChannels, bitsPerSample } = layout;
  const bytesPerSample = bitsPerSample / 8;
  const read = sampleReader(view, layout);
  const scale = layout.sampleKind === 'int' ? 2 ** (bitsPerSample - 1) : 1;
  const negativeDivisor = scale * numChannels;
  const positiveDivisor = (layout.sampleKind === 'int' ? scale - 1 : 1) * numChannels;
  for (let frame = startFrame; frame < endFrame; frame++) {
    let at = layout.dataOffset + frame * bytesPerSample * numChannels;
    out[frame] = 0;
    for (let c = 0; c < numChannels; c++, at += bytesPerSample) {
      const v = read(at);
      out[frame] += v / (v < 0 ? negativeDivisor : positiveDivisor);
    }
  }
}

/** One sample's value at a byte offset: integers centred on 0 (8-bit WAV is unsigned), floats as stored. */
function sampleReader(view: DataView, layout: WavLayout): (at: number) => number {
  if (layout.sampleKind === 'float') return layout.bitsPerSample === 32 ? (at) => view.getFloat32(at, true) : (at) => view.getFloat64(at, true);
  switch (layout.bitsPerSample) {
    case 8:
      return (at) => view.getUint8(at) - 128;
    case 16:
      return (at) => view.getInt16(at, true);
    case 24:
      return (at) => (view.getInt8(at + 2) << 16) | (view.getUint8(at + 1) << 8) | view.getUint8(at);
    default:
      return (at) => view.getInt32(at, true);
  }
}
