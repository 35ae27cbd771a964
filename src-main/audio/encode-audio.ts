/**
 * Mono float PCM → bytes in each of OpenAI's speech formats (mp3, opus, aac, flac, wav, pcm), whole
 * (encodeAudio) or as a stream (createAudioEncodeStream) for chunked HTTP responses. Validates the
 * input, picks each codec's rate (resampling with resample.ts where the codec cannot take the PCM's)
 * and bitrate; whole mp3 and opus files are read back and kept as loud as the input (lossy-loudness-match.ts).
 * The codec libraries sit behind codec-encode.ts and codec-decode.ts, which import each on first use.
 */
import { StudioError } from '../../src-shared/errors';
import { AUDIO_FORMATS, contentTypeFor, isAudioFormat, type AudioFormat } from '../../src-shared/audio-format';
import { checkSampleRate } from './check-args';
import { encodePcm16Le } from './pcm16';
import { resample } from './resample';
import { encodeWav, encodeWavHeader } from './wav-encode';
import { canDecodeBack, decodeOwnEncode } from './codec-decode';
import { encodeLoudnessMatched } from './lossy-loudness-match';
import { CODEC_SAMPLE_RATES_HZ, encodeWithCodec, openCodecStream, type CodecKind, type CodecStream } from './codec-encode';

export { AUDIO_FORMATS, contentTypeFor, type AudioFormat };

export interface EncodeAudioRequest {
  pcm: Float32Array;
  sampleRateHz: number;
  format: AudioFormat;
  /** mp3, opus and aac only; defaultEncodeSettings() has each default. */
  bitrateKbps?: number;
}

export interface EncodedAudio {
  bytes: Uint8Array;
  contentType: string;
  /** The encoded stream's rate: the input's, unless the codec needed another (see CODEC_SAMPLE_RATES_HZ). */
  sampleRateHz: number;
}

export interface AudioEncodeStreamOptions {
  sampleRateHz: number;
  format: AudioFormat;
  bitrateKbps?: number;
  /** Receives the encoded bytes in order, as soon as each frame or page is complete. */
  onBytes: (bytes: Uint8Array) => void;
}

export interface AudioEncodeStream {
  readonly format: AudioFormat;
  readonly contentType: string;
  /**
   * Queues the next chunk (copied, so the caller may reuse it at once); chunks are encoded in call
   * order, so write() may be called without awaiting. A bad chunk (NaN, too long) or a codec error
   * rejects this call, every later one and end().
   */
  write(pcm: Float32Array): Promise<void>;
  /** Flushes the codec after the queued chunks; every byte has reached onBytes when it resolves. Call once. */
  end(): Promise<void>;
  /** Drops the encode (the client went away): frees the codec; no more bytes. Safe to call at any time. */
  cancel(): Promise<void>;
}

export interface EncodeSettings {
  /** Bitrate used when a request names none. 24 kHz mono speech is clear at these rates. */
  bitrateKbps: { readonly mp3: number; readonly opus: number; readonly aac: number };
}

export function defaultEncodeSettings(): EncodeSettings {
  return { bitrateKbps: { mp3: 64, opus: 32, aac: 64 } };
}

/** Largest PCM one call encodes: an hour at 48 kHz. */
export const MAX_ENCODE_SAMPLES = 3600 * 48_000;

type LossyFormat = keyof EncodeSettings['bitrateKbps'];
const LOSSY: readonly AudioFormat[] = ['mp3', 'opus', 'aac'];

/** Encodes a whole clip into a finished file of `format`. */
export async function encodeAudio(request: EncodeAudioRequest): Promise<EncodedAudio> {
  const { pcm, sampleRateHz, format } = request;
  checkFormat(format);
  checkRate(sampleRateHz);
  checkPcm(pcm);
  const contentType = contentTypeFor(format);
  switch (format) {
    case 'wav': {
      resolveBitrateKbps(format, request.bitrateKbps, sampleRateHz);
      return { bytes: encodeWav(pcm, sampleRateHz, 'pcm16'), contentType, sampleRateHz };
    }
    case 'pcm':
      resolveBitrateKbps(format, request.bitrateKbps, sampleRateHz);
      return { bytes: encodePcm16Le(pcm), contentType, sampleRateHz };
    case 'mp3':
    case 'opus':
    case 'aac':
    case 'flac': {
      const codecRateHz = codecRateFor(CODEC_SAMPLE_RATES_HZ[format], sampleRateHz);
      const bitrateKbps = resolveBitrateKbps(format, request.bitrateKbps, codecRateHz);
      const input = codecRateHz === sampleRateHz ? pcm : resample(pcm, sampleRateHz, codecRateHz);
      const encode = (pcmAtCodecRate: Float32Array) => encodeWithCodec(format, pcmAtCodecRate, codecRateHz, (bitrateKbps ?? 0) * 1000);
      // mp3 and opus are read back and re-encoded until they measure as loud as the input (lossy-loudness-match.ts).
      const bytes = canDecodeBack(format) ? (await encodeLoudnessMatched(input, codecRateHz, encode, (b) => decodeOwnEncode(format, b))).bytes : await encode(input);
      return { bytes, contentType, sampleRateHz: codecRateHz };
    }
  }
}

/**
 * Opens a streamed encode for a chunked HTTP response: PCM chunks in, bytes out through onBytes.
 * mp3, aac and opus stream frame by frame (MP3 without a Xing frame, Ogg pages of at most 100 ms);
 * flac streams with STREAMINFO's total left unknown; wav sends a header whose sizes are 0xFFFFFFFF;
 * pcm is the samples. The rate must be one the codec takes as is (24 kHz suits every format).
 * Returns at once (bad options throw here); the codec loads behind the first write.
 */
export function createAudioEncodeStream(options: AudioEncodeStreamOptions): AudioEncodeStream {
  const { sampleRateHz, format, onBytes } = options;
  checkFormat(format);
  checkRate(sampleRateHz);
  if (format === 'wav' || format === 'pcm') {
    resolveBitrateKbps(format, options.bitrateKbps, sampleRateHz);
    let started = false;
    const codec: CodecStream = {
      async write(pcm) {
        if (format === 'wav' && !started) onBytes(encodeWavHeader(sampleRateHz, 'pcm16', null));
        started = true;
        if (pcm.length > 0) onBytes(encodePcm16Le(pcm));
      },
      async end() {
        if (format === 'wav' && !started) onBytes(encodeWavHeader(sampleRateHz, 'pcm16', null));
      },
      async cancel() {},
    };
    return new OrderedEncodeStream(format, Promise.resolve(codec));
  }
  const kind: CodecKind = format;
  if (!CODEC_SAMPLE_RATES_HZ[kind].includes(sampleRateHz)) {
    throw new StudioError(
      'unsupported',
      `a streamed ${format} encode needs one of ${CODEC_SAMPLE_RATES_HZ[kind].join(', ')} Hz but the audio is ${sampleRateHz} Hz; resample it first or use encodeAudio, which resamples`,
      { field: 'sampleRateHz', value: sampleRateHz, allowed: [...CODEC_SAMPLE_RATES_HZ[kind]] },
    );
  }
  const bitrateKbps = resolveBitrateKbps(format, options.bitrateKbps, sampleRateHz);
  return new OrderedEncodeStream(format, openCodecStream(kind, sampleRateHz, (bitrateKbps ?? 0) * 1000, onBytes));
}

/**
 * Runs a codec stream's calls one after another in call order, so a caller may fire write() from
 * a synchronous event handler without awaiting. The first failure fails every later call and end().
 */
class OrderedEncodeStream implements AudioEncodeStream {
  readonly contentType: string;
  private tail: Promise<void>;
  private codec: CodecStream | null = null;
  private failure: unknown = null;
  private state: 'open' | 'ended' | 'cancelled' = 'open';

  constructor(
    readonly format: AudioFormat,
    opening: Promise<CodecStream>,
  ) {
    this.contentType = contentTypeFor(format);
    this.tail = opening.then(
      (codec) => {
        this.codec = codec;
      },
      (err: unknown) => {
        this.failure ??= err;
      },
    );
  }

  write(pcm: Float32Array): Promise<void> {
    if (this.state !== 'open') return this.refuse(`the ${this.format} stream ${this.stateText()}; open a new stream for more audio`);
    try {
      checkChunk(pcm);
    } catch (err) {
      this.failure ??= err;
      return this.refuse(null);
    }
    const copy = pcm.slice(); // the caller may reuse its buffer as soon as write() returns
    return this.enqueue((codec) => codec.write(copy));
  }

  end(): Promise<void> {
    if (this.state !== 'open') return this.refuse(`the ${this.format} stream ${this.stateText()} already; call end() once`);
    this.state = 'ended';
    return this.enqueue((codec) => codec.end()).catch(async (err: unknown) => {
      await this.codec?.cancel().catch(() => {});
      throw err;
    });
  }

  cancel(): Promise<void> {
    if (this.state === 'cancelled') return Promise.resolve();
    this.state = 'cancelled';
    this.failure ??= new StudioError('cancelled', `the ${this.format} stream was cancelled`);
    return this.tail.then(() => this.codec?.cancel()).catch(() => {});
  }

  private enqueue(task: (codec: CodecStream) => Promise<void>): Promise<void> {
    const run = this.tail.then(() => {
      if (this.failure) throw this.failure;
      return task(this.codec!);
    });
    // The stored tail swallows the error so an unawaited write() never becomes an unhandled rejection.
    this.tail = run.catch((err: unknown) => {
      this.failure ??= err;
    });
    return run;
  }

  private stateText(): string {
    return this.state === 'cancelled' ? 'was cancelled' : 'has ended';
  }

  /** A rejected promise marked as handled: the caller learns of it by awaiting this or end(). */
  private refuse(message: string | null): Promise<void> {
    const error = message ? new StudioError('invalid-argument', message, { field: 'stream', state: this.state }) : this.failure;
    const rejected = Promise.reject(error);
    rejected.catch(() => {});
    return rejected;
  }
}

/** The codec rate for a PCM rate: the same when the codec takes it, else the next higher one it takes (or its highest). */
function codecRateFor(supportedHz: readonly number[], sampleRateHz: number): number {
  if (supportedHz.includes(sampleRateHz)) return sampleRateHz;
  return supportedHz.find((r) => r > sampleRateHz) ?? supportedHz[supportedHz.length - 1];
}

/** Bitrate limits: Layer III tables (MPEG-1 at 32 kHz and up, else MPEG-2/2.5), RFC 6716 for Opus, AAC-LC's 6144 bits per 1024-sample frame. */
function bitrateRangeKbps(format: LossyFormat, codecRateHz: number): { min: number; max: number } {
  switch (format) {
    case 'mp3':
      return codecRateHz >= 32_000 ? { min: 32, max: 320 } : { min: 8, max: 160 };
    case 'opus':
      return { min: 6, max: 510 };
    case 'aac':
      return { min: 8, max: Math.min(320, Math.floor((6 * codecRateHz) / 1000)) };
  }
}

/** `codecRateHz` is the rate the codec runs at. */
function resolveBitrateKbps(format: AudioFormat, requested: number | undefined, codecRateHz: number): number | null {
  if (!LOSSY.includes(format)) {
    if (requested !== undefined) {
      throw new StudioError('invalid-argument', `bitrateKbps applies to ${LOSSY.join(', ')} only but the format is ${format}, which is lossless; leave bitrateKbps out`, { field: 'bitrateKbps', value: requested });
    }
    return null;
  }
  const lossy = format as LossyFormat;
  const bitrateKbps = requested ?? defaultEncodeSettings().bitrateKbps[lossy];
  const { min, max } = bitrateRangeKbps(lossy, codecRateHz);
  if (!Number.isFinite(bitrateKbps) || bitrateKbps < min || bitrateKbps > max) {
    throw new StudioError('invalid-argument', `bitrateKbps is ${bitrateKbps} but ${format} at this sample rate takes ${min} to ${max}; pick a bitrate in that range or leave it out for ${defaultEncodeSettings().bitrateKbps[lossy]}`, { field: 'bitrateKbps', value: String(bitrateKbps), min, max });
  }
  return bitrateKbps;
}

function checkFormat(format: unknown): asserts format is AudioFormat {
  if (!isAudioFormat(format)) {
    throw new StudioError('invalid-argument', `format ${JSON.stringify(format)} is not an audio format; use one of ${AUDIO_FORMATS.join(', ')}`, { field: 'format', value: String(format), allowed: [...AUDIO_FORMATS] });
  }
}

function checkRate(sampleRateHz: number): void {
  checkSampleRate(sampleRateHz);
  if (!Number.isInteger(sampleRateHz)) {
    throw new StudioError('invalid-argument', `sampleRateHz is ${sampleRateHz} but must be a whole number of hertz; pass the PCM's real rate (24000 for the model's output)`, { field: 'sampleRateHz', value: sampleRateHz });
  }
}

function checkPcm(pcm: Float32Array): void {
  if (!(pcm instanceof Float32Array) || pcm.length === 0) {
    throw new StudioError('invalid-argument', 'pcm is empty; pass at least one sample of mono Float32Array audio', { field: 'pcm', numSamples: pcm instanceof Float32Array ? 0 : -1 });
  }
  checkChunk(pcm);
}

function checkChunk(pcm: Float32Array): void {
  if (!(pcm instanceof Float32Array)) {
    throw new StudioError('invalid-argument', 'pcm must be a Float32Array of mono samples in [-1, 1]; convert the audio first', { field: 'pcm' });
  }
  if (pcm.length > MAX_ENCODE_SAMPLES) {
    throw new StudioError('input-too-long', `pcm has ${pcm.length} samples but one encode takes at most ${MAX_ENCODE_SAMPLES} (an hour at 48 kHz); encode it in parts or stream it`, { field: 'pcm', numSamples: pcm.length, max: MAX_ENCODE_SAMPLES });
  }
  for (let i = 0; i < pcm.length; i++) {
    if (!Number.isFinite(pcm[i])) {
      throw new StudioError('invalid-argument', `pcm[${i}] is ${pcm[i]}; the audio has non-finite samples, so fix the stage that produced them (or replace them with 0) before encoding`, { field: 'pcm', index: i, value: String(pcm[i]) });
    }
  }
}
