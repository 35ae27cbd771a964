/**
 * Each format encoded from a known signal is decoded by an independent decoder (mpg123, FAAD2,
 * libopus via ogg-opus-decoder, libFLAC via @wasm-audio-decoders/flac, @audio/decode-wav) and
 * compared with the input after aligning the codec delay: length, rate and waveform. Plus the
 * streamed variants and every refused input.
 */
import { describe, expect, it } from 'vitest';
import { FLACDecoder } from '@wasm-audio-decoders/flac';
import { decodeIndependently } from './testing/decode-independently';
import { StudioError } from '../../src-shared/errors';
import { AUDIO_FORMATS, type AudioFormat } from '../../src-shared/audio-format';
import { createAudioEncodeStream, encodeAudio, type EncodedAudio } from './encode-audio';
import { quantizeToInt16 } from './pcm16';
import { resample } from './resample';
import { encodeWav } from './wav';

const RATE_HZ = 24_000;
const DURATION_S = 1.5;

/**
 * 440 Hz + 1 kHz tones with a quiet 200 → 3,000 Hz sweep: the tones alone repeat every 25 ms, the
 * sweep never does, so the cross-correlation peak names the codec delay without ambiguity.
 */
function testSignal(sampleRateHz = RATE_HZ, durationS = DURATION_S): Float32Array {
  const n = Math.round(sampleRateHz * durationS);
  const pcm = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / sampleRateHz;
    const sweepHz = 200 + ((3000 - 200) * t) / (2 * durationS); // instantaneous 200 → 3,000 Hz
    pcm[i] = 0.3 * Math.sin(2 * Math.PI * 440 * t) + 0.2 * Math.sin(2 * Math.PI * 1000 * t) + 0.15 * Math.sin(2 * Math.PI * sweepHz * t);
  }
  return pcm;
}

/** The lag (decoded index − reference index) in [minLag, maxLag] with the highest normalised correlation, and that correlation. */
function bestLag(reference: Float32Array, decoded: Float32Array, minLag: number, maxLag: number): { lag: number; correlation: number } {
  let best = { lag: 0, correlation: -Infinity };
  const guard = Math.round(reference.length * 0.05); // skip the edges, where codecs ramp in and out
  for (let lag = minLag; lag <= maxLag; lag++) {
    let dot = 0;
    let refEnergy = 0;
    let decEnergy = 0;
    for (let i = guard; i < reference.length - guard; i++) {
      const j = i + lag;
      const d = j >= 0 && j < decoded.length ? decoded[j] : 0;
      dot += reference[i] * d;
      refEnergy += reference[i] * reference[i];
      decEnergy += d * d;
    }
    const correlation = dot / Math.sqrt(refEnergy * decEnergy || 1);
    if (correlation > best.correlation) best = { lag, correlation };
  }
  return best;
}

/** Signal-to-noise ratio in dB of `decoded` (shifted by lag) against the reference, edges skipped. */
function snrDb(reference: Float32Array, decoded: Float32Array, lag: number): number {
  const guard = Math.round(reference.length * 0.05);
  let signal = 0;
  let noise = 0;
  for (let i = guard; i < reference.length - guard; i++) {
    const d = decoded[i + lag] ?? 0;
    signal += reference[i] * reference[i];
    noise += (reference[i] - d) ** 2;
  }
  return 10 * Math.log10(signal / Math.max(noise, 1e-20));
}

/**
 * Per format: the frame (in samples at the encoded rate) that bounds the length check, and the
 * correlation / SNR the decoded audio must reach. Measured on this signal at the default bitrates:
 * mp3 64 kbps 1.000 / 26 dB, aac 64 kbps 0.9999 / 38 dB, opus 32 kbps 0.984 / 15 dB (Opus keeps
 * each band's energy rather than its exact waveform); lossless 1.000 / 88 dB (16-bit quantization).
 * A broken encoder or a misaligned stream scores near 0.
 */
const EXPECT: { [F in AudioFormat]: { frameSamples: number; minCorrelation: number; minSnrDb: number } } = {
  mp3: { frameSamples: 576, minCorrelation: 0.99, minSnrDb: 18 }, // MPEG-2 Layer III granule at 24 kHz
  aac: { frameSamples: 1024, minCorrelation: 0.99, minSnrDb: 18 },
  opus: { frameSamples: 480, minCorrelation: 0.97, minSnrDb: 12 }, // 20 ms packets
  flac: { frameSamples: 0, minCorrelation: 1, minSnrDb: 80 }, // lossless: bit-exact 16-bit samples, so only quantization noise (≈ 88 dB here)
  wav: { frameSamples: 0, minCorrelation: 1, minSnrDb: 80 },
  pcm: { frameSamples: 0, minCorrelation: 1, minSnrDb: 80 },
};

/** Decodes, brings the decoded audio to the encoded rate when the decoder plays at another, and checks length and waveform. */
async function expectFaithful(format: AudioFormat, encoded: EncodedAudio, input: Float32Array, inputRateHz: number): Promise<{ lag: number; correlation: number; snr: number }> {
  const decoded = await decodeIndependently(format, encoded.bytes, encoded.sampleRateHz);
  // Opus decoders always play at 48 kHz (RFC 7845 §5.1: the header's rate is informational); FAAD2
  // doubles low-rate AAC-LC in case it carries implicit SBR. Both are the decoder's choice.
  const playedRateHz = format === 'opus' ? 48_000 : format === 'aac' && decoded.sampleRateHz === 2 * encoded.sampleRateHz ? decoded.sampleRateHz : encoded.sampleRateHz;
  expect(decoded.sampleRateHz).toBe(playedRateHz);
  const atEncodedRate = playedRateHz === encoded.sampleRateHz ? decoded.pcm : resample(decoded.pcm, playedRateHz, encoded.sampleRateHz);
  const reference = encoded.sampleRateHz === inputRateHz ? input : resample(input, inputRateHz, encoded.sampleRateHz);
  const spec = EXPECT[format];
  // Codec delays are positive and under 1,536 samples (LAME's 1,105 is the largest); a few below 0 catch an early decoder.
  const { lag, correlation } = spec.frameSamples === 0 ? bestLag(reference, atEncodedRate, 0, 0) : bestLag(reference, atEncodedRate, -32, 1536);
  // Length after removing the codec delay: within one frame of the input (the encoder pads its last frame).
  const numAligned = atEncodedRate.length - lag;
  expect(Math.abs(numAligned - reference.length)).toBeLessThanOrEqual(Math.max(spec.frameSamples, 2));
  const snr = snrDb(reference, atEncodedRate, lag);
  expect(correlation).toBeGreaterThanOrEqual(spec.minCorrelation - 1e-9);
  expect(snr).toBeGreaterThanOrEqual(spec.minSnrDb);
  return { lag, correlation, snr };
}

describe('encodeAudio', () => {
  const input = testSignal();

  it.each(AUDIO_FORMATS.map((f) => [f]))('encodes %s that an independent decoder plays back as the input', async (format) => {
    const encoded = await encodeAudio({ pcm: input, sampleRateHz: RATE_HZ, format });
    expect(encoded.sampleRateHz).toBe(RATE_HZ);
    expect(encoded.bytes.byteLength).toBeGreaterThan(0);
    const quality = await expectFaithful(format, encoded, input, RATE_HZ);
    if (format === 'opus') expect(Math.abs(quality.lag)).toBeLessThanOrEqual(1); // the pre-skip removes libopus's lookahead (to a sample)
    if (format === 'flac' || format === 'wav' || format === 'pcm' || format === 'mp3') expect(Math.abs(quality.lag)).toBe(0); // mp3: mpg123 trims by the LAME tag
  });

  it('writes FLAC whose 16-bit samples equal the quantized input exactly', async () => {
    const encoded = await encodeAudio({ pcm: input, sampleRateHz: RATE_HZ, format: 'flac' });
    const decoder = new FLACDecoder();
    await decoder.ready;
    const out = await decoder.decodeFile(encoded.bytes);
    decoder.free();
    expect(out.bitDepth).toBe(16);
    expect(out.samplesDecoded).toBe(input.length);
    const ints = quantizeToInt16(input);
    const back = out.channelData[0];
    let maxDiff = 0;
    // This decoder scales every 16-bit sample by 1/32767, so multiplying back gives the integers.
    for (let i = 0; i < ints.length; i++) maxDiff = Math.max(maxDiff, Math.abs(Math.round(back[i] * 32767) - ints[i]));
    expect(maxDiff).toBe(0);
  });

  it('writes the same WAV bytes as wav.ts', async () => {
    const encoded = await encodeAudio({ pcm: input, sampleRateHz: RATE_HZ, format: 'wav' });
    expect(Buffer.from(encoded.bytes).equals(Buffer.from(encodeWav(input, RATE_HZ, 'pcm16')))).toBe(true);
  });

  it('labels the AAC as ADTS at the encoded rate and the Opus header with the input rate', async () => {
    const aac = await encodeAudio({ pcm: input, sampleRateHz: RATE_HZ, format: 'aac' });
    expect(aac.bytes[0]).toBe(0xff);
    expect(aac.bytes[1] & 0xf6).toBe(0xf0); // ADTS syncword, layer 0
    expect((aac.bytes[2] >> 2) & 0x0f).toBe(6); // sampling_frequency_index 6 = 24,000 Hz (ISO/IEC 14496-3 Table 1.18)
    const opus = await encodeAudio({ pcm: input, sampleRateHz: RATE_HZ, format: 'opus' });
    const text = new TextDecoder('latin1').decode(opus.bytes.subarray(0, 200));
    const head = text.indexOf('OpusHead');
    expect(head).toBeGreaterThan(0);
    expect(new DataView(opus.bytes.buffer, opus.bytes.byteOffset).getUint32(head + 12, true)).toBe(RATE_HZ);
  });

  it('returns the content type of each format', async () => {
    const types: Record<string, string> = {};
    for (const format of AUDIO_FORMATS) types[format] = (await encodeAudio({ pcm: input.subarray(0, 2400), sampleRateHz: RATE_HZ, format })).contentType;
    expect(types).toEqual({ mp3: 'audio/mpeg', opus: 'audio/ogg', aac: 'audio/aac', flac: 'audio/flac', wav: 'audio/wav', pcm: 'audio/pcm' });
  });

  it('resamples with resample.ts when the codec cannot take the rate (opus at 44.1 kHz → 48 kHz, aac at 30 kHz → 32 kHz)', async () => {
    const at44k = testSignal(44_100, 1);
    const opus = await encodeAudio({ pcm: at44k, sampleRateHz: 44_100, format: 'opus' });
    expect(opus.sampleRateHz).toBe(48_000);
    await expectFaithful('opus', opus, at44k, 44_100);
    const at30k = testSignal(30_000, 1);
    const aac = await encodeAudio({ pcm: at30k, sampleRateHz: 30_000, format: 'aac' });
    expect(aac.sampleRateHz).toBe(32_000);
    await expectFaithful('aac', aac, at30k, 30_000);
  });

  it('follows the requested bitrate (mp3 at 32 vs 128 kbps, opus at 16 vs 64 kbps)', async () => {
    const size = async (format: AudioFormat, bitrateKbps: number) => (await encodeAudio({ pcm: input, sampleRateHz: RATE_HZ, format, bitrateKbps })).bytes.byteLength;
    // CBR mp3: bytes ≈ kbps · 1000 / 8 · 1.5 s, so 128 kbps is about 4× 32 kbps.
    expect((await size('mp3', 128)) / (await size('mp3', 32))).toBeGreaterThan(3);
    expect((await size('opus', 64)) / (await size('opus', 16))).toBeGreaterThan(2.5);
  });
});

describe('createAudioEncodeStream', () => {
  const input = testSignal();
  const CHUNK = 1920; // 80 ms at 24 kHz, the engine's first chunk

  async function streamAll(format: AudioFormat, chunks: Float32Array[]): Promise<{ bytes: Uint8Array; numBytesBeforeEnd: number }> {
    const parts: Uint8Array[] = [];
    const stream = createAudioEncodeStream({ sampleRateHz: RATE_HZ, format, onBytes: (b) => parts.push(b.slice()) });
    for (const chunk of chunks) await stream.write(chunk);
    const numBytesBeforeEnd = parts.reduce((n, p) => n + p.byteLength, 0);
    await stream.end();
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.byteLength;
    }
    return { bytes, numBytesBeforeEnd };
  }

  function chunked(pcm: Float32Array): Float32Array[] {
    const chunks: Float32Array[] = [pcm.subarray(0, 1000)]; // one odd-sized chunk first
    for (let i = 1000; i < pcm.length; i += CHUNK) chunks.push(pcm.slice(i, Math.min(pcm.length, i + CHUNK)));
    return chunks;
  }

  it.each(AUDIO_FORMATS.map((f) => [f]))('streams %s in 80 ms chunks into bytes an independent decoder plays back as the input', async (format) => {
    const { bytes, numBytesBeforeEnd } = await streamAll(format, chunked(input));
    // Audio leaves before the end: a client hears the first frames while the rest is generated.
    expect(numBytesBeforeEnd).toBeGreaterThan(bytes.byteLength / 4);
    await expectFaithful(format, { bytes, contentType: '', sampleRateHz: RATE_HZ }, input, RATE_HZ);
  });

  it('sends pcm bytes for each chunk at once', async () => {
    const parts: Uint8Array[] = [];
    const stream = createAudioEncodeStream({ sampleRateHz: RATE_HZ, format: 'pcm', onBytes: (b) => parts.push(b) });
    await stream.write(input.subarray(0, CHUNK));
    expect(parts.map((p) => p.byteLength)).toEqual([2 * CHUNK]);
    await stream.end();
  });

  it('refuses a rate the codec cannot stream, a write after end, and a second end', async () => {
    expect(() => createAudioEncodeStream({ sampleRateHz: 22_050, format: 'opus', onBytes: () => {} })).toThrow(expect.objectContaining({ code: 'unsupported', message: expect.stringContaining('resample it first') }));
    const stream = createAudioEncodeStream({ sampleRateHz: RATE_HZ, format: 'mp3', onBytes: () => {} });
    await stream.write(input.subarray(0, CHUNK));
    await stream.end();
    await expect(stream.write(input.subarray(0, CHUNK))).rejects.toMatchObject({ code: 'invalid-argument', message: expect.stringContaining('open a new stream') });
    await expect(stream.end()).rejects.toBeInstanceOf(StudioError);
  });

  it('refuses NaN in a streamed chunk before encoding it', async () => {
    const stream = createAudioEncodeStream({ sampleRateHz: RATE_HZ, format: 'aac', onBytes: () => {} });
    const bad = input.slice(0, CHUNK);
    bad[7] = Number.NaN;
    await expect(stream.write(bad)).rejects.toMatchObject({ code: 'invalid-argument', details: { field: 'pcm', index: 7 } });
    await expect(stream.write(input.subarray(0, CHUNK))).rejects.toMatchObject({ details: { index: 7 } });
    await expect(stream.end()).rejects.toMatchObject({ details: { index: 7 } }); // and the codec is released
  });

  it('encodes writes fired without awaiting in call order, and copies each chunk', async () => {
    const parts: Uint8Array[] = [];
    const stream = createAudioEncodeStream({ sampleRateHz: RATE_HZ, format: 'mp3', onBytes: (b) => parts.push(b.slice()) });
    const reused = new Float32Array(CHUNK);
    for (let i = 0; i < input.length; i += CHUNK) {
      reused.set(input.subarray(i, i + CHUNK));
      void stream.write(reused.subarray(0, Math.min(CHUNK, input.length - i))); // as a synchronous event handler would
      reused.fill(0); // the stream copied the chunk: overwriting it must not change the audio
    }
    await stream.end();
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    parts.reduce((at, p) => (bytes.set(p, at), at + p.byteLength), 0);
    await expectFaithful('mp3', { bytes, contentType: '', sampleRateHz: RATE_HZ }, input, RATE_HZ);
  });

  it('stops sending bytes once cancelled and refuses later writes', async () => {
    let numBytes = 0;
    const stream = createAudioEncodeStream({ sampleRateHz: RATE_HZ, format: 'opus', onBytes: (b) => (numBytes += b.byteLength) });
    await stream.write(input.subarray(0, RATE_HZ));
    await stream.cancel();
    const numBytesAtCancel = numBytes;
    await expect(stream.write(input.subarray(0, CHUNK))).rejects.toMatchObject({ message: expect.stringContaining('was cancelled') });
    await expect(stream.end()).rejects.toBeInstanceOf(StudioError);
    expect(numBytes).toBe(numBytesAtCancel);
  });
});

describe('encodeAudio refuses bad input with the fix in the message', () => {
  const pcm = testSignal(RATE_HZ, 0.1);
  const refuse = (request: Parameters<typeof encodeAudio>[0]) => expect(encodeAudio(request)).rejects.toBeInstanceOf(StudioError);

  it('NaN and infinite samples name the index', async () => {
    const withNaN = pcm.slice();
    withNaN[42] = Number.NaN;
    await expect(encodeAudio({ pcm: withNaN, sampleRateHz: RATE_HZ, format: 'mp3' })).rejects.toMatchObject({ code: 'invalid-argument', message: expect.stringContaining('pcm[42] is NaN'), details: { index: 42 } });
    const withInf = pcm.slice();
    withInf[3] = Number.POSITIVE_INFINITY;
    await expect(encodeAudio({ pcm: withInf, sampleRateHz: RATE_HZ, format: 'wav' })).rejects.toMatchObject({ details: { index: 3 } });
  });

  it('empty PCM, a non-Float32Array, an unknown format', async () => {
    await expect(encodeAudio({ pcm: new Float32Array(0), sampleRateHz: RATE_HZ, format: 'flac' })).rejects.toMatchObject({ code: 'invalid-argument', message: expect.stringContaining('pcm is empty') });
    await refuse({ pcm: [0.1, 0.2] as unknown as Float32Array, sampleRateHz: RATE_HZ, format: 'pcm' });
    await expect(encodeAudio({ pcm, sampleRateHz: RATE_HZ, format: 'ogg' as AudioFormat })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: expect.stringContaining('use one of mp3, opus, aac, flac, wav, pcm'),
      details: { field: 'format' },
    });
  });

  it('a rate out of range or fractional', async () => {
    await expect(encodeAudio({ pcm, sampleRateHz: 4000, format: 'mp3' })).rejects.toMatchObject({ code: 'invalid-argument', details: { field: 'sampleRateHz' } });
    await expect(encodeAudio({ pcm, sampleRateHz: 400_000, format: 'wav' })).rejects.toMatchObject({ details: { field: 'sampleRateHz' } });
    await expect(encodeAudio({ pcm, sampleRateHz: 24_000.5, format: 'opus' })).rejects.toMatchObject({ message: expect.stringContaining('whole number of hertz') });
    await refuse({ pcm, sampleRateHz: Number.NaN, format: 'aac' });
  });

  it('a bitrate outside the codec range, or any bitrate for a lossless format', async () => {
    await expect(encodeAudio({ pcm, sampleRateHz: RATE_HZ, format: 'mp3', bitrateKbps: 320 })).rejects.toMatchObject({ message: expect.stringContaining('takes 8 to 160'), details: { field: 'bitrateKbps' } });
    await expect(encodeAudio({ pcm, sampleRateHz: RATE_HZ, format: 'opus', bitrateKbps: 2 })).rejects.toMatchObject({ details: { field: 'bitrateKbps', min: 6, max: 510 } });
    await expect(encodeAudio({ pcm, sampleRateHz: RATE_HZ, format: 'aac', bitrateKbps: 200 })).rejects.toMatchObject({ details: { max: 144 } });
    await expect(encodeAudio({ pcm, sampleRateHz: RATE_HZ, format: 'flac', bitrateKbps: 64 })).rejects.toMatchObject({ message: expect.stringContaining('leave bitrateKbps out') });
    await expect(encodeAudio({ pcm, sampleRateHz: 48_000, format: 'mp3', bitrateKbps: 320 })).resolves.toMatchObject({ contentType: 'audio/mpeg' });
  });
});
