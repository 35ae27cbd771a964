// What a player makes of our lossy exports, by ffmpeg as the independent decoder and meter: an MP3
// decodes to exactly the input's sample count with no leading delay (the LAME tag's delay and padding),
// and mp3, opus and aac measure within ±0.2 LU of the WAV they came from (ffmpeg's ebur128 filter).
// The loudness loop itself is checked with a fake codec. Skips, saying so, where ffmpeg is missing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeWithCodec } from './codec-encode';
import { encodeAudio } from './encode-audio';
import { encodeLoudnessMatched, LOSSY_LOUDNESS_TOLERANCE_LU } from './lossy-loudness-match';
import { measureIntegratedLoudness } from './loudness';
import { readMp3InfoTag } from './mp3-info-tag';
import { measureTruePeak } from './true-peak';
import { normalizeLoudness } from './normalize-loudness';
import { seededRandom } from './dsp-test-helpers';

const RATE_HZ = 24_000;
const MAX_EXPORT_ERROR_LU = 0.2;

/**
 * Speech-like: a gliding voiced tone with harmonics up to 11 kHz at a 4 Hz syllable rate plus bursts of
 * noise (fricatives), normalised to −16 LUFS / −1 dBTP as an export is. Its top octave is what LAME's
 * 64 kbps lowpass removes and K-weighting counts.
 */
function speechLike(seed: number, durationS: number, rateHz = RATE_HZ): Float32Array {
  const random = seededRandom(seed);
  const x = new Float32Array(Math.round(rateHz * durationS));
  let f0Hz = 120;
  let phase = 0;
  for (let i = 0; i < x.length; i++) {
    const t = i / rateHz;
    if (i % Math.round(rateHz / 10) === 0) f0Hz = 100 + 150 * random();
    phase += (2 * Math.PI * f0Hz) / rateHz;
    let voiced = 0;
    for (let h = 1; h * f0Hz < Math.min(11_000, rateHz / 2); h++) voiced += Math.sin(h * phase) / h;
    const fricative = (random() - 0.5) * (Math.sin(2 * Math.PI * 3 * t) > 0.6 ? 0.09 : 0.01);
    x[i] = 0.1 * (0.5 + 0.5 * Math.sin(2 * Math.PI * 4 * t)) * voiced + fricative;
  }
  return normalizeLoudness(x, rateHz, { targetLufs: -16, truePeakCeilingDbtp: -1 }).pcm;
}

describe('encodeLoudnessMatched', () => {
  /** A codec that loses a fixed level (as LAME's lowpass costs loudness): the bytes are the scaled float samples. */
  const lossyBy = (lossDb: number) => ({
    encode: async (pcm: Float32Array) => new Uint8Array(Float32Array.from(pcm, (v) => v * 10 ** (-lossDb / 20)).buffer),
    decode: async (bytes: Uint8Array) => ({ pcm: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4), sampleRateHz: RATE_HZ }),
  });

  it('re-encodes with the opposite gain until the decoded file measures as loud as the input', async () => {
    const pcm = speechLike(1, 1.5);
    const { encode, decode } = lossyBy(0.5);
    const result = await encodeLoudnessMatched(pcm, RATE_HZ, encode, decode);
    expect(result.gainDb).toBeCloseTo(0.5, 1);
    expect(Math.abs(result.errorLu)).toBeLessThanOrEqual(LOSSY_LOUDNESS_TOLERANCE_LU);
    const decoded = await decode(result.bytes);
    expect(Math.abs(measureIntegratedLoudness(decoded.pcm, decoded.sampleRateHz) - measureIntegratedLoudness(pcm, RATE_HZ))).toBeLessThan(0.1);
  });

  it('stops lifting where the input would pass 0 dBTP, and leaves silence alone', async () => {
    const speech = speechLike(2, 1.5);
    const scale = 10 ** (-0.2 / 20) / measureTruePeak(speech, RATE_HZ);
    const pcm = Float32Array.from(speech, (v) => v * scale); // true peak −0.2 dBTP
    const { encode, decode } = lossyBy(0.5);
    const result = await encodeLoudnessMatched(pcm, RATE_HZ, encode, decode);
    expect(result.gainDb).toBeGreaterThan(0.15);
    expect(result.gainDb).toBeLessThanOrEqual(0.2 + 0.01);
    expect(result.errorLu).toBeLessThan(-0.25);
    const silent = await encodeLoudnessMatched(new Float32Array(RATE_HZ), RATE_HZ, encode, decode);
    expect(silent).toMatchObject({ gainDb: 0, errorLu: 0 });
  });
});

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
if (!hasFfmpeg) console.warn('lossy-export.test.ts: ffmpeg is not installed, so the decoder and meter checks are skipped (.ci/run installs it)');

describe.skipIf(!hasFfmpeg)('lossy exports through ffmpeg', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lossy-export-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function write(name: string, bytes: Uint8Array): string {
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    return file;
  }

  /** ffmpeg's decode of `file` as mono float samples at `rateHz`. */
  function ffmpegDecode(file: string, rateHz: number): Float32Array {
    const run = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'f32le', '-ac', '1', '-ar', String(rateHz), '-'], { maxBuffer: 1 << 28 });
    expect(run.status, run.stderr.toString()).toBe(0);
    return new Float32Array(run.stdout.buffer, run.stdout.byteOffset, run.stdout.byteLength / 4);
  }

  /**
   * ffmpeg's ebur128 integrated loudness, to 0.001 LU (its summary prints 0.1): the last value of its
   * per-frame metadata, after 0.5 s of padding so every block of the file has been measured.
   */
  function ffmpegLufs(file: string): number {
    const run = spawnSync('ffmpeg', ['-nostats', '-i', file, '-af', 'apad=pad_dur=0.5,ebur128=metadata=1,ametadata=mode=print:key=lavfi.r128.I', '-f', 'null', '-'], { encoding: 'utf8' });
    const values = [...run.stderr.matchAll(/lavfi\.r128\.I=(-?[\d.]+)/g)];
    if (values.length === 0) throw new Error(`ffmpeg printed no loudness: ${run.stderr.slice(-500)}`);
    return Number(values[values.length - 1][1]);
  }

  it.each([
    [24_000, 64], // MPEG-2, 576-sample frames
    [44_100, 128], // MPEG-1, 1,152-sample frames
  ])('decodes an MP3 at %i Hz, %i kbps to exactly the WAV\'s samples, starting with its first', async (rateHz, bitrateKbps) => {
    const pcm = speechLike(3, 1.2, rateHz).subarray(0, Math.round(1.2 * rateHz) - 7); // not a whole number of frames
    const mp3 = await encodeAudio({ pcm, sampleRateHz: rateHz, format: 'mp3', bitrateKbps });
    const wav = await encodeAudio({ pcm, sampleRateHz: rateHz, format: 'wav' });
    const tag = readMp3InfoTag(mp3.bytes)!;
    expect(tag).toMatchObject({ kind: 'Info', encoderDelaySamples: 576, tagCrcValid: true });
    const decoded = ffmpegDecode(write(`a${rateHz}.mp3`, mp3.bytes), rateHz);
    expect(ffmpegDecode(write(`a${rateHz}.wav`, wav.bytes), rateHz).length).toBe(pcm.length);
    expect(decoded.length).toBe(pcm.length); // before the LAME tag: + 1,105 at the start and the flush at the end
    // No leading delay: the decoded signal lines up with the input at lag 0, not at ±1 frame of it.
    const correlationAt = (lag: number) => {
      let dot = 0, a = 0, b = 0;
      for (let i = 2000; i < pcm.length - 2000; i += 2) {
        dot += pcm[i] * decoded[i + lag];
        a += pcm[i] * pcm[i];
        b += decoded[i + lag] * decoded[i + lag];
      }
      return dot / Math.sqrt(a * b);
    };
    expect(correlationAt(0)).toBeGreaterThan(0.95);
    for (const lag of [-2, -1, 1, 2, 529, 576, 1105]) expect(correlationAt(lag)).toBeLessThan(correlationAt(0));
  });

  it.each([['mp3'], ['opus'], ['aac']] as const)('writes %s that ffmpeg\'s ebur128 measures within ±0.2 LU of the WAV', async (format) => {
    for (const seed of [4]) {
      const pcm = speechLike(seed, 2);
      const wavLufs = ffmpegLufs(write(`l${seed}.wav`, (await encodeAudio({ pcm, sampleRateHz: RATE_HZ, format: 'wav' })).bytes));
      const lossy = await encodeAudio({ pcm, sampleRateHz: RATE_HZ, format });
      const errorLu = ffmpegLufs(write(`l${seed}.${format}`, lossy.bytes)) - wavLufs;
      expect(Math.abs(errorLu), `${format}, seed ${seed}: ${errorLu.toFixed(3)} LU`).toBeLessThanOrEqual(MAX_EXPORT_ERROR_LU);
    }
  });

  it('needs the correction: LAME at 64 kbps alone measures more than 0.3 LU under the WAV', async () => {
    const pcm = speechLike(4, 2);
    const wavLufs = ffmpegLufs(write('u.wav', (await encodeAudio({ pcm, sampleRateHz: RATE_HZ, format: 'wav' })).bytes));
    const uncorrected = await encodeWithCodec('mp3', pcm, RATE_HZ, 64_000);
    expect(ffmpegLufs(write('u.mp3', uncorrected)) - wavLufs).toBeLessThan(-0.3); // measured −0.44
  });
});
