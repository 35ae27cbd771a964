/**
 * Reads a clip's container structure, without decoding it, to say what it is and whether it is whole:
 * MPEG audio frame headers (MP3) and ADTS ones (AAC), a WAV data chunk that runs past the end of the
 * file, an MP3 cut mid-frame or short of its Xing count, an Ogg stream without its end-of-stream page,
 * and FLAC's STREAMINFO sample count. The decoders accept all of these cuts silently. Pure.
 */

const MPEG1_RATES_HZ = [44100, 48000, 32000];
/** Kbit/s by [MPEG-1 ? 0 : 1][layer − 1][index]; index 0 is free format, 15 is invalid. */
const BITRATES_KBPS = [
  [
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  [
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
];

export interface MpegFrameHeader {
  layer: 1 | 2 | 3;
  sampleRateHz: number;
  /** Bytes of the whole frame, header included; null for free-format bitrate (not computable). */
  numBytes: number | null;
}

/** The MPEG audio (MP1/2/3) frame header at `at`, or null when the bytes there are not one. */
export function mpegFrameHeader(bytes: Uint8Array, at: number): MpegFrameHeader | null {
  if (at + 4 > bytes.length || bytes[at] !== 0xff || (bytes[at + 1] & 0xe0) !== 0xe0) return null;
  const version = (bytes[at + 1] >> 3) & 3; // 3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5, 1 reserved
  const layerBits = (bytes[at + 1] >> 1) & 3; // 3 layer I, 2 layer II, 1 layer III, 0 reserved (ADTS uses 0)
  const bitrateIndex = bytes[at + 2] >> 4;
  const rateIndex = (bytes[at + 2] >> 2) & 3;
  if (version === 1 || layerBits === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const sampleRateHz = MPEG1_RATES_HZ[rateIndex] / (version === 3 ? 1 : version === 2 ? 2 : 4);
  const bitrateBps = BITRATES_KBPS[version === 3 ? 0 : 1][layer - 1][bitrateIndex] * 1000;
  const padding = (bytes[at + 2] >> 1) & 1;
  if (bitrateBps === 0) return { layer, sampleRateHz, numBytes: null };
  // ISO 11172-3 / 13818-3: layer I counts 4-byte slots; layer III of MPEG-2/2.5 has half the samples per frame.
  const numBytes = layer === 1 ? (Math.floor((12 * bitrateBps) / sampleRateHz) + padding) * 4 : Math.floor(((layer === 3 && version !== 3 ? 72 : 144) * bitrateBps) / sampleRateHz) + padding;
  return { layer, sampleRateHz, numBytes };
}

/** True when an ADTS (AAC) frame header starts at `at`: sync 0xFFF and layer bits 00. */
export function isAdtsHeader(bytes: Uint8Array, at: number): boolean {
  return at + 7 <= bytes.length && bytes[at] === 0xff && (bytes[at + 1] & 0xf6) === 0xf0;
}

/** Bytes of an ID3v2 tag at the start (header, body and footer), or 0 when there is none. */
export function id3v2Length(bytes: Uint8Array): number {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0; // 'ID3'
  const size = ((bytes[6] & 0x7f) << 21) | ((bytes[7] & 0x7f) << 14) | ((bytes[8] & 0x7f) << 7) | (bytes[9] & 0x7f); // syncsafe
  return 10 + size + (bytes[5] & 0x10 ? 10 : 0);
}

const u32le = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
const u32be = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const ascii = (b: Uint8Array, at: number, n: number) => new TextDecoder('latin1').decode(b.subarray(at, at + n));
const seconds = (s: number) => `${s.toFixed(1)} s`;

/** Data chunk sizes a streaming writer leaves in the header because the length is not known yet. */
const UNKNOWN_WAV_SIZES = new Set([0, 0xffffffff]);

/** How a WAV file is cut (its data chunk announces more bytes than follow), or null. */
export function wavTruncation(bytes: Uint8Array): string | null {
  let byteRate = 0;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = ascii(bytes, at, 4);
    const size = u32le(bytes, at + 4);
    if (id === 'fmt ' && at + 16 <= bytes.length) byteRate = u32le(bytes, at + 16);
    if (id === 'data') {
      const available = bytes.length - (at + 8);
      if (UNKNOWN_WAV_SIZES.has(size) || size <= available) return null;
      const held = byteRate > 0 ? ` (${seconds(available / byteRate)} of the ${seconds(size / byteRate)} its header announces)` : '';
      return `its WAV data chunk announces ${size} bytes but the file holds ${available}${held}`;
    }
    at += 8 + size + (size & 1); // chunks are padded to an even length
  }
  return null;
}

/**
 * How an MP3 is cut or damaged, or null: the last frame header announces more bytes than follow, or
 * fewer whole frames follow than the Xing/Info header counts (a cut between frames, or junk mid-file).
 */
export function mp3Truncation(bytes: Uint8Array): string | null {
  const start = id3v2Length(bytes);
  let at = start;
  let numFrames = 0;
  for (;;) {
    const frame = mpegFrameHeader(bytes, at);
    // Anything else ends the walk: the end of the file, an ID3v1/APE tag, free format, or junk the decoder skips.
    if (!frame || frame.numBytes === null) break;
    if (at + frame.numBytes > bytes.length) {
      return `its MP3 frame ${numFrames + 1} needs ${frame.numBytes} bytes but only ${bytes.length - at} follow (the file ends mid-frame)`;
    }
    at += frame.numBytes;
    numFrames++;
  }
  if (at < bytes.length && bytes.length - at < 4 && bytes[at] === 0xff) return `the file ends ${bytes.length - at} bytes into the header of MP3 frame ${numFrames + 1}`;
  const counted = xingFrameCount(bytes, start);
  if (counted !== null && numFrames < counted) return `only ${numFrames} of the ${counted} MP3 frames its Xing/Info header counts are there whole (the frames stop at byte ${at} of ${bytes.length})`;
  return null;
}

/** The frame count of a Xing/Info header in the first frame (after 9, 17 or 32 bytes of side information), or null. */
function xingFrameCount(bytes: Uint8Array, frameAt: number): number | null {
  for (const offset of [4 + 9, 4 + 17, 4 + 32]) {
    const at = frameAt + offset;
    if (at + 12 > bytes.length) return null;
    const tag = ascii(bytes, at, 4);
    if ((tag === 'Xing' || tag === 'Info') && (bytes[at + 7] & 1) !== 0) return u32be(bytes, at + 8); // flag 1: the frame count follows
  }
  return null;
}

/** How an Ogg stream is cut (a page runs past the end, or the last page is not marked end-of-stream), or null. */
export function oggTruncation(bytes: Uint8Array): string | null {
  let at = 0;
  let numPages = 0;
  while (at < bytes.length) {
    if (at + 27 > bytes.length || ascii(bytes, at, 4) !== 'OggS') return `its Ogg page ${numPages + 1} is cut or damaged (at byte ${at} of ${bytes.length})`;
    const numSegments = bytes[at + 26];
    let pageBytes = 27 + numSegments;
    if (at + pageBytes > bytes.length) return `its Ogg page ${numPages + 1} is cut (at byte ${at} of ${bytes.length})`;
    for (let s = 0; s < numSegments; s++) pageBytes += bytes[at + 27 + s];
    if (at + pageBytes > bytes.length) return `its Ogg page ${numPages + 1} needs ${pageBytes} bytes but only ${bytes.length - at} follow`;
    const endOfStream = (bytes[at + 5] & 0x04) !== 0;
    at += pageBytes;
    numPages++;
    if (at === bytes.length && !endOfStream) return `its last Ogg page (${numPages}) is not marked end-of-stream, so the stream stops early`;
  }
  return null;
}

export interface FlacStreamInfo {
  /** Samples per channel the file announces; null when the encoder left it unknown (0). */
  numSamples: number | null;
  /** The largest block (samples per channel in one frame). */
  maxBlockSize: number;
}

/** The sample count and largest block from a FLAC file's STREAMINFO, or null when it is unreadable. */
export function flacStreamInfo(bytes: Uint8Array): FlacStreamInfo | null {
  // 'fLaC', then the STREAMINFO block: a 4-byte header and 34 bytes (max block: bytes 2–3; total: bits 108–143).
  if (bytes.length < 8 + 18 || ascii(bytes, 0, 4) !== 'fLaC' || (bytes[4] & 0x7f) !== 0) return null;
  const info = 8;
  const total = (bytes[info + 13] & 0x0f) * 2 ** 32 + u32be(bytes, info + 14);
  return { numSamples: total > 0 ? total : null, maxBlockSize: (bytes[info + 2] << 8) | bytes[info + 3] };
}
