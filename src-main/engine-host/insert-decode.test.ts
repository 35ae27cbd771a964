/**
 * <audio src> WAVs are bounded by what they decode to, not by their bytes: the samples at the output
 * rate (and the frames at the file's own rate) are checked from the header, over all files of a
 * request; a rate that cannot be resampled and non-finite float samples fail the request with a
 * clear error; decodeInsertAtRate (run on a worker thread) decodes and resamples to the output rate. Issue 36: a 49 MiB 8-bit 8 kHz WAV
 * grew the host to 3.4 GB; a float WAV with NaN ended in a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as wavefileModule from 'wavefile';
import type { StudioError } from '../../src-shared/errors';
import { httpStatusForError } from '../../src-shared/errors';
import { decodeWav } from '../audio/wav';
import { encodeWav } from '../audio/wav-encode';
import { readWavLayout } from '../audio/wav-read';
import type { SsmlSegment } from '../ssml/segments';
import { defaultAudioInsertPolicy, loadAudioInserts, type AudioInsertPolicy } from './audio-inserts';
import { resample } from '../audio/resample';
import { AUDIO_INSERT_MAX_DECODED_SAMPLES, decodeInsertAtRate } from './insert-decode';

type Shape = { WaveFile: typeof wavefileModule.WaveFile };
const WaveFile = (wavefileModule as unknown as Shape).WaveFile ?? (wavefileModule as unknown as { default: Shape }).default.WaveFile;

let dir: string;
let policy: AudioInsertPolicy;

const audio = (...srcs: string[]): SsmlSegment[] => srcs.map((src) => ({ kind: 'audio', src, fallbackText: '' }));

/** An 8-bit mono WAV of `numFrames` quiet frames at `rateHz` (one byte per frame). */
function write8Bit(name: string, rateHz: number, numFrames: number): number {
  const w = new WaveFile();
  w.fromScratch(1, rateHz, '8', new Uint8Array(numFrames).fill(130));
  const bytes = w.toBuffer();
  fs.writeFileSync(path.join(dir, name), bytes);
  return bytes.length;
}

const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected the load to fail'); }, (e: unknown) => e as StudioError);

beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'insert-decode-')));
  policy = defaultAudioInsertPolicy([dir], 24_000);
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the decoded-size bound', () => {
  it('refuses a small file that decodes to too many samples at the output rate, and inserts a larger file that decodes to fewer', async () => {
    const oneSecond = { ...policy, maxDecodedSamples: 24_000 }; // 1 s at 24 kHz
    // 10,000 frames at 8 kHz: a 10 kB file, 30,000 samples once resampled to 24 kHz
    const smallBytes = write8Bit('small-8k.wav', 8000, 10_000);
    // 20,000 frames at 24 kHz, 16-bit: a 40 kB file, 20,000 samples
    const large = encodeWav(new Float32Array(20_000).fill(0.1), 24_000, 'pcm16');
    fs.writeFileSync(path.join(dir, 'large-24k.wav'), large);
    expect(large.length).toBeGreaterThan(3 * smallBytes);
    const err = await failure(loadAudioInserts(audio('small-8k.wav'), oneSecond));
    expect(err.code).toBe('input-too-long');
    expect(httpStatusForError(err.code)).toBe(400);
    expect(err.message).toMatch(/^<audio src="small-8k\.wav"> decodes to 30,000 samples at 24,000 Hz \(0\.0 min; 10,000 frames at 8,000 Hz in the file\), but the <audio> files of one request may decode to at most 24,000 samples/);
    expect(err.message).toMatch(/cut the clip, or split the document into several requests$/);
    expect(err.details).toMatchObject({ numDecodedSamples: 30_000, maxDecodedSamples: 24_000 });
    const loaded = await loadAudioInserts(audio('large-24k.wav'), oneSecond);
    expect(loaded.audio.get('large-24k.wav')!.pcm.length).toBe(20_000);
  });

  it('counts the frames of a file above the output rate, and all files of a request together', async () => {
    const oneSecond = { ...policy, maxDecodedSamples: 24_000 };
    // 30,000 frames at 48 kHz: 15,000 samples at 24 kHz, but 30,000 frames to decode first
    fs.writeFileSync(path.join(dir, 'hi-48k.wav'), encodeWav(new Float32Array(30_000), 48_000, 'pcm16'));
    expect((await failure(loadAudioInserts(audio('hi-48k.wav'), oneSecond))).details).toMatchObject({ numDecodedSamples: 30_000 });
    fs.writeFileSync(path.join(dir, 'half-a.wav'), encodeWav(new Float32Array(15_000), 24_000, 'pcm16'));
    fs.writeFileSync(path.join(dir, 'half-b.wav'), encodeWav(new Float32Array(15_000), 24_000, 'pcm16'));
    const err = await failure(loadAudioInserts(audio('half-a.wav', 'half-b.wav'), oneSecond));
    expect(err.message).toMatch(/^<audio src="half-b\.wav"> decodes to 15,000 samples.*at most 24,000 samples \(0\.0 min\), of which 9,000 are left/);
  });

  it('refuses the 8-bit 8 kHz shape of the issue by its header under the default bound', async () => {
    // 4,900,000 frames (4.9 MB): 14,700,000 samples at 24 kHz (10.2 minutes) > 14,400,000 (10 minutes)
    write8Bit('long-8k.wav', 8000, 4_900_000);
    const err = await failure(loadAudioInserts(audio('long-8k.wav'), policy));
    expect(err.code).toBe('input-too-long');
    expect(err.details).toMatchObject({ numDecodedSamples: 14_700_000, maxDecodedSamples: AUDIO_INSERT_MAX_DECODED_SAMPLES });
    expect(err.message).toMatch(/\(10\.2 min; 4,900,000 frames at 8,000 Hz in the file\).*at most 14,400,000 samples \(10\.0 min\)/);
  });

  it('refuses a sample rate the pipeline cannot resample, naming the range', async () => {
    write8Bit('slow.wav', 1000, 100);
    const err = await failure(loadAudioInserts(audio('slow.wav'), policy));
    expect(err.code).toBe('invalid-argument');
    expect(err.message).toBe('<audio src="slow.wav"> is sampled at 1,000 Hz but inserted audio must be from 8,000 to 192,000 Hz; resample the file (e.g. to 24,000 Hz)');
  });
});

describe('non-finite samples', () => {
  it('fails on a float WAV with NaN or infinity, naming the src, the time and the fix', async () => {
    for (const [name, value] of [['nan.wav', NaN], ['inf.wav', -Infinity]] as const) {
      const pcm = new Float32Array(4800).fill(0.25);
      pcm[2400] = value;
      fs.writeFileSync(path.join(dir, name), encodeWav(pcm, 24_000, 'float32'));
      const err = await failure(loadAudioInserts(audio(name), policy));
      expect(err.code).toBe('invalid-argument');
      expect(httpStatusForError(err.code)).toBe(400);
      expect(err.message).toBe(`<audio src="${name}"> has a ${value} sample at 100 ms (frame 2,400); inserted audio must hold finite samples, so re-export the clip (float WAVs with NaN or infinity come from a broken effect or converter)`);
      expect(err.details).toMatchObject({ field: 'input', src: name, frame: 2400 });
    }
  });
});

describe('decodeInsertAtRate', () => {
  it('decodes to decodeWav\'s samples at the output rate, and resamples a file at another rate to it', () => {
    const numFrames = 48_005;
    const bytes = encodeWav(Float32Array.from({ length: numFrames }, (_, i) => Math.sin(i / 7) * 0.5), 24_000, 'pcm16');
    const same = decodeInsertAtRate('same.wav', bytes, readWavLayout(bytes), 24_000);
    expect(same.sampleRateHz).toBe(24_000);
    expect(Buffer.from(same.pcm.buffer).equals(Buffer.from(decodeWav(bytes).pcm.buffer))).toBe(true);
    // 48,005 frames at 24 kHz are round(48,005 · 16 / 24) = 32,003 samples at 16 kHz, as resample() makes them
    const shared = (n: number) => new Float32Array(new SharedArrayBuffer(n * 4));
    const other = decodeInsertAtRate('other.wav', bytes, readWavLayout(bytes), 16_000, shared);
    expect(other).toMatchObject({ sampleRateHz: 16_000 });
    expect(other.pcm.length).toBe(32_003);
    expect(other.pcm.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Array.from(other.pcm.subarray(0, 64))).toEqual(Array.from(resample(decodeWav(bytes).pcm, 24_000, 16_000).subarray(0, 64)));
  });
});
