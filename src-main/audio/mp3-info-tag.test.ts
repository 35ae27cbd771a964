// The Info frame with LAME's gapless fields, built over synthetic Layer III frames and parsed back:
// delay and padding at the tag's byte 0x8D, frame and byte counts, the CRC-16 of the tag and the music,
// a larger bitrate where the audio's frame is too small for the tag, and the refusals. The decoders'
// view (ffmpeg and mpg123 return exactly the input's samples) is in lossy-export.test.ts.
import { describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import { buildMp3InfoFrame, crc16, LAME_ENCODER_DELAY_SAMPLES, MP3_DECODER_DELAY_SAMPLES, readMp3InfoTag } from './mp3-info-tag';

/** `numFrames` frames with the given 4-byte header and a body of a counting pattern (so the music CRC sees every byte). */
function frames(header: number[], frameBytes: number, numFrames: number): Uint8Array {
  const out = new Uint8Array(frameBytes * numFrames);
  for (let f = 0; f < numFrames; f++) {
    out.set(header, f * frameBytes);
    for (let i = 4; i < frameBytes; i++) out[f * frameBytes + i] = (f * 31 + i) & 255;
  }
  return out;
}

// MPEG-2 Layer III, no CRC, 64 kbps, 24 kHz, mono: 72 × 64,000 / 24,000 = 192 bytes, 576 samples a frame.
const MPEG2_24K_MONO_64K = [0xff, 0xf3, 0x84, 0xc4];
// MPEG-1 Layer III, no CRC, 32 kbps, 48 kHz, mono: 144 × 32,000 / 48,000 = 96 bytes, 1,152 samples a frame.
const MPEG1_48K_MONO_32K = [0xff, 0xfb, 0x14, 0xc4];

describe('crc16', () => {
  it('gives the CRC-16/ARC check value of "123456789" (0xBB3D) and 0 for nothing', () => {
    expect(crc16(new TextEncoder().encode('123456789'))).toBe(0xbb3d);
    expect(crc16(new Uint8Array(0))).toBe(0);
  });
});

describe('buildMp3InfoFrame', () => {
  it('writes an Info frame whose LAME tag carries delay 576 and the padding that leaves exactly the input samples', () => {
    const audio = frames(MPEG2_24K_MONO_64K, 192, 40);
    const numSamples = 20_000;
    const info = buildMp3InfoFrame(audio, numSamples);
    expect(info.length).toBe(192); // the audio's own bitrate holds 13 + 120 + 36 = 169 bytes
    expect([...info.subarray(0, 4)]).toEqual([0xff, 0xf3, 0x84, 0xc4]);
    const xingAt = 4 + 9; // MPEG-2 mono side information
    expect(String.fromCharCode(...info.subarray(xingAt, xingAt + 4))).toBe('Info');
    // Delay and padding as 12 + 12 bits at byte 0x8D of the tag: 40 × 576 − 576 − 20,000 = 2,464.
    const d = info.subarray(xingAt + 0x8d, xingAt + 0x90);
    expect((d[0] << 4) | (d[1] >> 4)).toBe(576);
    expect(((d[1] & 15) << 8) | d[2]).toBe(2464);
    // Side information all zero: mpg123 only looks for the tag there, and other decoders play a silent frame.
    expect(info.subarray(4, xingAt).every((b) => b === 0)).toBe(true);

    const tag = readMp3InfoTag(concat(info, audio))!;
    expect(tag).toEqual({
      kind: 'Info',
      numFrames: 40, // the audio frames, not the Info frame (ffmpeg and mpg123 multiply this by 576)
      numBytes: 192 + 40 * 192,
      encoderName: 'LAME3.100',
      encoderDelaySamples: LAME_ENCODER_DELAY_SAMPLES,
      paddingSamples: 2464,
      bitrateKbps: 64,
      musicCrc: crc16(audio),
      tagCrcValid: true,
    });
    // What a gapless decoder returns: frames × 576 − delay − padding.
    expect(tag.numFrames * 576 - tag.encoderDelaySamples - tag.paddingSamples).toBe(numSamples);
  });

  it('picks a larger bitrate for the Info frame when the audio frame is too small for the tag (MPEG-1 at 48 kHz, 32 kbps)', () => {
    const audio = frames(MPEG1_48K_MONO_32K, 96, 10);
    const info = buildMp3InfoFrame(audio, 10 * 1152 - 576 - 600);
    // 4 + 17 + 120 + 36 = 177 bytes needed; 40 kbps gives 120, 48 → 144, 56 → 168, 64 → 192.
    expect(info.length).toBe(192);
    expect(info[2] >> 4).toBe(5); // MPEG-1 Layer III bitrate index 5 is 64 kbps
    const tag = readMp3InfoTag(concat(info, audio))!;
    expect(tag.numFrames).toBe(10);
    expect(tag.paddingSamples).toBe(600);
    expect(tag.bitrateKbps).toBe(32); // the tag names the audio's bitrate, not the Info frame's
    expect(tag.tagCrcValid).toBe(true);
  });

  it('reports a tag CRC that no longer matches after any byte before it changes', () => {
    const audio = frames(MPEG2_24K_MONO_64K, 192, 8);
    const file = concat(buildMp3InfoFrame(audio, 8 * 576 - 576 - 1000), audio);
    file[13 + 0x8f] ^= 1; // one bit of the padding
    const tag = readMp3InfoTag(file)!;
    expect(tag.paddingSamples).toBe(1001);
    expect(tag.tagCrcValid).toBe(false);
  });

  it('refuses padding below the decoder delay or above 12 bits, and data that is not whole Layer III frames', () => {
    const audio = frames(MPEG2_24K_MONO_64K, 192, 8);
    expect(() => buildMp3InfoFrame(audio, 8 * 576 - 576 - (MP3_DECODER_DELAY_SAMPLES - 1))).toThrow(StudioError);
    expect(() => buildMp3InfoFrame(audio, 8 * 576 - 576 - MP3_DECODER_DELAY_SAMPLES)).not.toThrow();
    expect(() => buildMp3InfoFrame(frames(MPEG2_24K_MONO_64K, 192, 20), 100)).toThrow(/padding/);
    expect(() => buildMp3InfoFrame(audio.subarray(0, 8 * 192 - 1), 1000)).toThrow(/no whole frame at byte 1344/);
    expect(() => buildMp3InfoFrame(new Uint8Array(400), 10)).toThrow(/Layer III/);
  });
});

describe('readMp3InfoTag', () => {
  it('returns null for a plain audio frame and for bytes that are no frame', () => {
    expect(readMp3InfoTag(frames(MPEG2_24K_MONO_64K, 192, 2))).toBeNull();
    expect(readMp3InfoTag(new Uint8Array(200))).toBeNull();
  });
});

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
