/**
 * The gapless header of an MP3 file: an "Info" frame (Xing header for CBR) carrying LAME's extension
 * with the encoder delay and padding, so decoders (ffmpeg, mpg123, players) trim the priming and the
 * flush and return exactly the encoded sample count. Built over the finished audio frames and parsed
 * back (readMp3InfoTag) for tests. Pure bytes; no I/O. Layout: LAME's "Mp3 Info Tag rev 1" spec
 * (https://web.archive.org/web/2019/http://gabriel.mp3-tech.org/mp3infotag.html) and its VbrTag.c.
 */
import { StudioError } from '../../src-shared/errors';
import { mpegFrameHeader } from './clip-integrity';

/** LAME 3.100's encoder delay (ENCDELAY in encoder.h): the first 576 output samples are priming. */
export const LAME_ENCODER_DELAY_SAMPLES = 576;
/** The decoder's own delay that ffmpeg and mpg123 add to the tag's encoder delay (528 + 1, mpg123's GAPLESS_DELAY). */
export const MP3_DECODER_DELAY_SAMPLES = 529;
/** "LAME3.100": ffmpeg reads delay and padding only when the encoder string starts LAME, Lavf or Lavc. */
const ENCODER_NAME = 'LAME3.100';
/** Xing flags: frame count, byte count, TOC, quality (LAME writes all four, so the LAME extension sits at +120). */
const XING_FLAGS = 0x0f;
const XING_FIELDS_BYTES = 4 + 4 + 4 + 4 + 100 + 4;
const LAME_EXTENSION_BYTES = 36;
const MAX_12_BITS = 4095;

export interface Mp3InfoTag {
  /** "Info" for a constant bitrate (what we write), "Xing" for VBR. */
  kind: 'Info' | 'Xing';
  /** Audio frames after the Info frame: the decoded length is numFrames × samplesPerFrame − delay − padding. */
  numFrames: number;
  /** Bytes from the Info frame's first byte to the end of the last audio frame. */
  numBytes: number;
  encoderName: string;
  encoderDelaySamples: number;
  paddingSamples: number;
  bitrateKbps: number;
  /** CRC-16 of the audio frames after the Info frame, as stored. */
  musicCrc: number;
  /** Whether the stored tag CRC matches the frame's first bytes (a decoder may ignore a tag that fails). */
  tagCrcValid: boolean;
}

/** CRC-16/ARC (polynomial 0x8005 reflected, initial 0): the CRC of LAME's tag and music fields. */
export function crc16(bytes: Uint8Array, crc = 0): number {
  for (let i = 0; i < bytes.length; i++) {
    crc ^= bytes[i];
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

/** Bytes of side information after the 4-byte header (no CRC): MPEG-1 32 (stereo) or 17 (mono), MPEG-2/2.5 17 or 9. */
function xingOffset(header: Uint8Array): number {
  const isMpeg1 = ((header[1] >> 3) & 3) === 3;
  const isMono = header[3] >> 6 === 3;
  return 4 + (isMpeg1 ? (isMono ? 17 : 32) : isMono ? 9 : 17);
}

/**
 * The Info frame to put before `audio` (bare Layer III frames, all of one rate and mode, as LAME
 * writes at a constant bitrate). `numSamples` is what the encoder was given; the padding is what
 * the frames hold beyond it and the delay. Throws when the frames cannot carry that many samples.
 */
export function buildMp3InfoFrame(audio: Uint8Array, numSamples: number, encoderDelaySamples = LAME_ENCODER_DELAY_SAMPLES): Uint8Array {
  const first = mpegFrameHeader(audio, 0);
  if (!first || first.layer !== 3 || first.numBytes === null) throw new StudioError('internal', 'the MP3 encoder returned data that does not start with a Layer III frame; please report this with the request');
  const framePositions: number[] = [];
  for (let at = 0; at < audio.length; ) {
    const frame = mpegFrameHeader(audio, at);
    if (!frame || frame.numBytes === null || at + frame.numBytes > audio.length) throw new StudioError('internal', `the MP3 encoder returned no whole frame at byte ${at} of ${audio.length}; please report this with the request`, { at, numBytes: audio.length });
    framePositions.push(at);
    at += frame.numBytes;
  }
  const samplesPerFrame = ((audio[1] >> 3) & 3) === 3 ? 1152 : 576;
  const paddingSamples = framePositions.length * samplesPerFrame - encoderDelaySamples - numSamples;
  // Fewer than the decoder delay and a gapless decoder runs out of samples before the end.
  if (paddingSamples < MP3_DECODER_DELAY_SAMPLES || paddingSamples > MAX_12_BITS || encoderDelaySamples > MAX_12_BITS) {
    throw new StudioError('internal', `${framePositions.length} MP3 frames of ${samplesPerFrame} samples leave ${paddingSamples} samples of padding after ${numSamples} input samples and the ${encoderDelaySamples}-sample delay, but the LAME tag needs ${MP3_DECODER_DELAY_SAMPLES} to ${MAX_12_BITS}; please report this with the request`, { numFrames: framePositions.length, paddingSamples, numSamples });
  }

  const header = audio.slice(0, 4);
  header[1] |= 1; // protection bit set: no CRC after the header
  header[2] &= 0x0d; // clear bitrate index and padding bit, keep rate index and private bit
  const offset = xingOffset(header);
  const frameBytes = pickBitrate(header, (audio[2] >> 4) & 15, offset + XING_FIELDS_BYTES + LAME_EXTENSION_BYTES);
  const frame = new Uint8Array(frameBytes);
  frame.set(header);
  const view = new DataView(frame.buffer);
  const numBytes = frameBytes + audio.length;
  frame.set([0x49, 0x6e, 0x66, 0x6f], offset); // "Info"
  view.setUint32(offset + 4, XING_FLAGS);
  view.setUint32(offset + 8, framePositions.length);
  view.setUint32(offset + 12, numBytes);
  for (let i = 0; i < 100; i++) {
    // TOC: where (in 1/256 of numBytes) the frame i % of the way through starts.
    const at = frameBytes + framePositions[Math.floor((framePositions.length * i) / 100)];
    frame[offset + 16 + i] = Math.floor((256 * at) / numBytes);
  }
  view.setUint32(offset + 116, 0); // quality: unused at a constant bitrate

  const lame = offset + XING_FIELDS_BYTES;
  for (let i = 0; i < ENCODER_NAME.length; i++) frame[lame + i] = ENCODER_NAME.charCodeAt(i);
  frame[lame + 9] = 0x01; // tag revision 0, VBR method 1: constant bitrate
  // lame + 10 … 19 stay 0: lowpass unknown, no ReplayGain peak or gains, no encoding flags.
  // The audio's bitrate back from its frame size, floor(samplesPerFrame / 8 × bitrate / rate) + padding bit: within 0.3 kbps, rounded.
  const bitrateKbps = Math.round(((first.numBytes - ((audio[2] >> 1) & 1)) * 8 * first.sampleRateHz) / samplesPerFrame / 1000);
  frame[lame + 20] = Math.min(255, bitrateKbps);
  frame[lame + 21] = encoderDelaySamples >> 4;
  frame[lame + 22] = ((encoderDelaySamples & 15) << 4) | (paddingSamples >> 8);
  frame[lame + 23] = paddingSamples & 255;
  frame[lame + 24] = (sourceRateBits(first.sampleRateHz) << 6) | (stereoModeBits(header[3] >> 6) << 2);
  view.setUint32(lame + 28, numBytes); // music length
  view.setUint16(lame + 32, crc16(audio)); // music CRC
  view.setUint16(lame + 34, crc16(frame.subarray(0, lame + 34))); // tag CRC: every byte of the frame before it
  return frame;
}

/** Sets the smallest bitrate index from `preferred` (the audio's) up whose frame holds `neededBytes`; returns the frame size. */
function pickBitrate(header: Uint8Array, preferred: number, neededBytes: number): number {
  const candidates = [preferred, ...Array.from({ length: 14 }, (_, i) => i + 1).filter((i) => i > preferred)];
  for (const index of candidates) {
    header[2] = (header[2] & 0x0f) | (index << 4);
    const size = mpegFrameHeader(header, 0)?.numBytes ?? 0;
    if (size >= neededBytes) return size;
  }
  throw new StudioError('internal', `no MP3 bitrate at this rate gives a frame of ${neededBytes} bytes for the Info tag`, { neededBytes });
}

/** LAME's misc byte, bits 6–7: source rate ≤ 32 kHz, 44.1 kHz, 48 kHz, above. */
function sourceRateBits(sampleRateHz: number): number {
  return sampleRateHz <= 32_000 ? 0 : sampleRateHz === 44_100 ? 1 : sampleRateHz === 48_000 ? 2 : 3;
}

/** LAME's misc byte, bits 2–4, from the header's channel mode (0 stereo, 1 joint, 2 dual, 3 mono). */
function stereoModeBits(channelMode: number): number {
  return [1, 3, 2, 0][channelMode];
}

/** The Info/Xing frame at `at` (after any ID3v2 tag) with its LAME extension, or null when there is none. */
export function readMp3InfoTag(bytes: Uint8Array, at = 0): Mp3InfoTag | null {
  const frame = mpegFrameHeader(bytes, at);
  if (!frame || frame.layer !== 3 || frame.numBytes === null || at + frame.numBytes > bytes.length) return null;
  const offset = xingOffset(bytes.subarray(at, at + 4));
  const tagAt = at + offset;
  const kind = latin1(bytes, tagAt, 4);
  if (kind !== 'Info' && kind !== 'Xing') return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const flags = view.getUint32(tagAt + 4);
  let field = tagAt + 8;
  const numFrames = flags & 1 ? view.getUint32(field) : 0;
  if (flags & 1) field += 4;
  const numBytes = flags & 2 ? view.getUint32(field) : 0;
  if (flags & 2) field += 4;
  if (flags & 4) field += 100;
  if (flags & 8) field += 4;
  const lame = field;
  if (lame + LAME_EXTENSION_BYTES > at + frame.numBytes) return null;
  const d = bytes.subarray(lame + 21, lame + 24);
  return {
    kind,
    numFrames,
    numBytes,
    encoderName: latin1(bytes, lame, 9),
    encoderDelaySamples: (d[0] << 4) | (d[1] >> 4),
    paddingSamples: ((d[1] & 15) << 8) | d[2],
    bitrateKbps: bytes[lame + 20],
    musicCrc: view.getUint16(lame + 32),
    tagCrcValid: view.getUint16(lame + 34) === crc16(bytes.subarray(at, lame + 34)),
  };
}

function latin1(bytes: Uint8Array, at: number, numBytes: number): string {
  return new TextDecoder('latin1').decode(bytes.subarray(at, at + numBytes));
}
