// Reference clip bytes of every common format decode to mono PCM at the clip's rate: WAV of any rate
// and channels; MP3 / FLAC / Ogg Vorbis made by sox (fixtures/, stereo and odd rates); MP3, FLAC and
// Ogg Opus made by our own encoders at test time. Then the prepared clip is 24 kHz and trimmed, and
// damaged, cut-short, unknown or unsupported bytes (AAC, the studio's own .aac export) are refused naming the fix.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeReferenceAudio, mixToMono, sniffAudioContainer, sniffOggCodec } from './reference-audio';
import { prepareReferenceClip } from './reference-clip';
import { createAudioEncodeStream, encodeAudio } from './encode-audio';
import { encodeWav } from './wav';

const fixture = (name: string) => new Uint8Array(readFileSync(path.join(__dirname, 'fixtures', name)));

/** 180 Hz with a 3 Hz tremolo between 0.3 s silences: a clip the checks accept. */
function voiced(seconds: number, rateHz: number, amplitude = 0.3): Float32Array {
  const pad = Math.round(0.3 * rateHz);
  const core = Math.round(seconds * rateHz);
  const out = new Float32Array(core + 2 * pad);
  for (let i = 0; i < core; i++) out[pad + i] = amplitude * Math.sin((2 * Math.PI * 180 * i) / rateHz) * (0.7 + 0.3 * Math.sin((2 * Math.PI * 3 * i) / rateHz));
  return out;
}

const rms = (x: Float32Array) => Math.sqrt(x.reduce((s, v) => s + v * v, 0) / Math.max(1, x.length));

describe('reference audio bytes', () => {
  it('decodes a 44.1 kHz WAV to mono PCM at its own rate', async () => {
    const pcm = Float32Array.from({ length: 4410 }, (_, i) => 0.5 * Math.sin(i / 10));
    const decoded = await decodeReferenceAudio(encodeWav(pcm, 44100, 'float32'));
    expect(decoded).toMatchObject({ sampleRateHz: 44100, numChannels: 1, format: 'wav' });
    expect(decoded.pcm.length).toBe(4410);
    expect(decoded.pcm[100]).toBeCloseTo(pcm[100], 6);
  });

  it.each([
    ['clip-stereo-44k.mp3', 'mp3', 44100, 2],
    ['clip-mono-16k.flac', 'flac', 16000, 1],
    ['clip-stereo-22k.ogg', 'ogg-vorbis', 22050, 2],
  ])('decodes %s (made by sox) to mono and prepares it to 24 kHz', async (name, format, rateHz, numChannels) => {
    const decoded = await decodeReferenceAudio(fixture(name));
    expect(decoded).toMatchObject({ format, sampleRateHz: rateHz, numChannels });
    // 2.5 s of tone between 0.3 s pads (MP3 adds its encoder delay and padding)
    expect(decoded.pcm.length / rateHz).toBeGreaterThan(3.05);
    expect(decoded.pcm.length / rateHz).toBeLessThan(3.2);
    expect(rms(decoded.pcm)).toBeGreaterThan(0.1);
    const clip = prepareReferenceClip(decoded.pcm, decoded.sampleRateHz);
    expect(clip.sampleRateHz).toBe(24000);
    expect(clip.durationMs).toBeGreaterThan(2400);
    expect(clip.durationMs).toBeLessThan(2700);
  });

  it.each(['mp3', 'flac', 'opus'] as const)('decodes %s bytes from our own encoder with the same level and length', async (format) => {
    const pcm = voiced(2, 24000);
    const encoded = await encodeAudio({ pcm, sampleRateHz: 24000, format });
    const decoded = await decodeReferenceAudio(encoded.bytes);
    expect(decoded.format).toBe(format === 'opus' ? 'ogg-opus' : format);
    const seconds = decoded.pcm.length / decoded.sampleRateHz;
    expect(seconds).toBeGreaterThan(2.55);
    expect(seconds).toBeLessThan(2.75);
    expect(rms(decoded.pcm)).toBeGreaterThan(0.8 * rms(pcm));
    expect(rms(decoded.pcm)).toBeLessThan(1.25 * rms(pcm));
  });

  it('averages the channels', () => {
    expect([...mixToMono([Float32Array.of(1, 0.5), Float32Array.of(0, -0.5)], 2)]).toEqual([0.5, 0]);
  });

  it('recognises containers and Ogg codecs by their bytes', () => {
    const bytes = (s: string, rest: number[] = []) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)).concat(rest, Array(16).fill(0)));
    expect(sniffAudioContainer(bytes('fLaC'))).toBe('flac');
    expect(sniffAudioContainer(bytes('OggS'))).toBe('ogg');
    expect(sniffAudioContainer(bytes('ID3'))).toBe('mp3');
    expect(sniffAudioContainer(Uint8Array.from([0xff, 0xfb, 0x90, 0x64]))).toBe('mp3');
    expect(sniffAudioContainer(bytes('\0\0\0\x20ftypM4A '))).toBe('mp4');
    expect(sniffOggCodec(fixture('clip-stereo-22k.ogg'))).toBe('vorbis');
    const speexPage = Uint8Array.from([...Array(26).fill(0), 1, 80, ...[...'Speex   '].map((c) => c.charCodeAt(0))]);
    expect(sniffOggCodec(speexPage)).toBe('speex');
  });

  it('refuses unsupported, unknown, damaged and oversized bytes naming the fix', async () => {
    const bytes = (s: string) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)).concat(Array(64).fill(0)));
    await expect(decodeReferenceAudio(bytes('\0\0\0\x20ftypM4A '))).rejects.toThrow(/MP4\/M4A file \(usually AAC audio\).*use WAV, FLAC, MP3, Ogg Vorbis or Ogg Opus.*ffmpeg -i clip\.m4a clip\.wav/);
    await expect(decodeReferenceAudio(bytes('hello'))).rejects.toThrow(/not a recognised audio file/);
    await expect(decodeReferenceAudio(bytes('OggS'))).rejects.toThrow(/Ogg file with an unknown codec/);
    const cut = fixture('clip-mono-16k.flac').subarray(0, 60);
    await expect(decodeReferenceAudio(cut)).rejects.toMatchObject({ code: 'invalid-argument', message: expect.stringMatching(/could not be decoded as FLAC .*export it again/) });
    await expect(decodeReferenceAudio(new Uint8Array(64 * 1024 * 1024 + 1))).rejects.toMatchObject({ code: 'payload-too-large' });
  });
});

describe('reference audio: AAC and clips cut short', () => {
  afterEach(() => vi.restoreAllMocks());

  it('refuses the studio\'s own .aac export (ADTS) as AAC, naming the formats that work, without running the MP3 decoder', async () => {
    const aac = (await encodeAudio({ pcm: voiced(2, 24000), sampleRateHz: 24000, format: 'aac' })).bytes;
    expect(sniffAudioContainer(aac)).toBe('aac');
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(decodeReferenceAudio(aac)).rejects.toMatchObject({
      code: 'unsupported',
      message: expect.stringMatching(/is AAC audio in an ADTS stream .*use WAV, FLAC, MP3, Ogg Vorbis or Ogg Opus: export the take as WAV or FLAC/),
    });
    expect(consoleError).not.toHaveBeenCalled(); // mpg123 printed a line per frame it could not decode
  });

  it('tells ADTS from MPEG audio by the layer bits, also after an ID3 tag', () => {
    const id3 = [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 2, 0, 0]; // 'ID3', v2.4, a 2-byte body
    const adts = [0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc];
    const mp3 = [0xff, 0xfb, 0x90, 0x64, 0, 0, 0];
    expect(sniffAudioContainer(Uint8Array.from(adts))).toBe('aac');
    expect(sniffAudioContainer(Uint8Array.from([...id3, ...adts]))).toBe('aac');
    expect(sniffAudioContainer(Uint8Array.from(mp3))).toBe('mp3');
    expect(sniffAudioContainer(Uint8Array.from([...id3, ...mp3]))).toBe('mp3');
    expect(sniffAudioContainer(Uint8Array.from([0xff, 0xff, 0xff, 0xff]))).toBeNull(); // sync bits alone are not a frame
  });

  it.each([
    ['wav', /its WAV data chunk announces 96000 bytes but the file holds \d+ \(1\.2 s of the 2\.0 s its header announces\)/],
    ['mp3', /its MP3 frame \d+ needs \d+ bytes but only \d+ follow/],
    ['flac', /it holds 1\.\d s of the 2\.0 s its STREAMINFO announces/],
    ['opus', /its Ogg page \d+ needs \d+ bytes but only \d+ follow/],
  ] as const)('refuses a %s clip cut at 60 %, saying how much is missing', async (format, how) => {
    const whole = format === 'wav' ? encodeWav(voiced(1.4, 24000), 24000, 'pcm16') : (await encodeAudio({ pcm: voiced(1.4, 24000), sampleRateHz: 24000, format })).bytes;
    await expect(decodeReferenceAudio(whole)).resolves.toBeDefined();
    const cut = whole.subarray(0, Math.round(whole.length * 0.6) + 1);
    await expect(decodeReferenceAudio(cut)).rejects.toMatchObject({ code: 'invalid-argument', message: expect.stringMatching(new RegExp(`cut short or damaged: ${how.source}.*copy or export it again`)) });
  });

  it('refuses the sox-made Ogg Vorbis and MP3 cut mid-page or mid-frame, and an MP3 missing frames its Xing header counts', async () => {
    const ogg = fixture('clip-stereo-22k.ogg');
    await expect(decodeReferenceAudio(ogg.subarray(0, ogg.length - 100))).rejects.toThrow(/cut short or damaged: its Ogg page/);
    const pages = ogg.slice();
    pages[pages.length - 1] ^= 0xff; // still whole: only the audio of the last page changes
    await expect(decodeReferenceAudio(pages)).resolves.toMatchObject({ format: 'ogg-vorbis' });
    const mp3 = fixture('clip-stereo-44k.mp3');
    await expect(decodeReferenceAudio(mp3.subarray(0, mp3.length - 50))).rejects.toThrow(/cut short or damaged: its MP3 frame 120 needs/);
    const ours = (await encodeAudio({ pcm: voiced(1.4, 24000), sampleRateHz: 24000, format: 'mp3' })).bytes;
    const holed = ours.slice();
    holed.fill(0, ours.length >> 1, (ours.length >> 1) + 400); // junk where frames were
    await expect(decodeReferenceAudio(holed)).rejects.toThrow(/only \d+ of the \d+ MP3 frames its Xing\/Info header counts are there whole/);
  });

  it('accepts a WAV streamed with unknown sizes (0xFFFFFFFF in the header), as the HTTP API sends it', async () => {
    const chunks: Uint8Array[] = [];
    const stream = createAudioEncodeStream({ sampleRateHz: 24000, format: 'wav', onBytes: (b) => chunks.push(b) });
    await stream.write(voiced(1.4, 24000));
    await stream.end();
    const bytes = Uint8Array.from(chunks.flatMap((c) => Array.from(c)));
    const decoded = await decodeReferenceAudio(bytes);
    expect(decoded.pcm.length).toBe(voiced(1.4, 24000).length);
  });
});
