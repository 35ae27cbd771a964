/**
 * The only file that imports the audio encoding libraries: mediabunny (muxers for MP3, ADTS, FLAC and
 * Ogg) with its WebAssembly encoder extensions (LAME, FFmpeg's AAC, libFLAC) and opusscript (libopus).
 * Each library is imported on first use, so start-up pays for none of them. Knows nothing about
 * formats' defaults or validation: encode-audio.ts decides rates and bitrates and calls in here.
 */
import type * as Mediabunny from 'mediabunny';
import { StudioError } from '../../src-shared/errors';
import { buildMp3InfoFrame } from './mp3-info-tag';
import { quantizeToInt16 } from './pcm16';

export type CodecKind = 'mp3' | 'aac' | 'flac' | 'opus';

/** Input rates each encoder accepts as they are (others are resampled by the caller). */
export const CODEC_SAMPLE_RATES_HZ: { readonly [K in CodecKind]: readonly number[] } = {
  mp3: [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000], // MPEG-1/2/2.5 Layer III
  aac: [7350, 8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000],
  flac: [8000, 16000, 22050, 24000, 32000, 44100, 48000, 88200, 96000, 176400, 192000],
  opus: [8000, 12000, 16000, 24000, 48000],
};

/** Bytes out of a streamed encode, in file order; the array is the callee's to keep. */
export type BytesListener = (bytes: Uint8Array) => void;

export interface CodecStream {
  /** Encodes float samples in [-1, 1] (quantized to 16 bits for FLAC); `pcm` may be reused after it resolves. */
  write(pcm: Float32Array): Promise<void>;
  /** Flushes the encoder and the muxer; every byte has gone to the listener when it resolves. */
  end(): Promise<void>;
  /** Abandons the encode and frees the codec (its worker); nothing more is written. */
  cancel(): Promise<void>;
}

type MediabunnyModule = typeof Mediabunny;

let mediabunny: Promise<MediabunnyModule> | null = null;
const registered = new Map<CodecKind, Promise<void>>();

function loadMediabunny(): Promise<MediabunnyModule> {
  mediabunny ??= import('mediabunny');
  return mediabunny;
}

/** Imports mediabunny and the one encoder extension `kind` needs, registering it once. */
function loadCodec(kind: CodecKind): Promise<MediabunnyModule> {
  let done = registered.get(kind);
  if (!done) {
    done = (async () => {
      const mb = await loadMediabunny();
      switch (kind) {
        case 'mp3':
          (await import('@mediabunny/mp3-encoder')).registerMp3Encoder();
          return;
        case 'aac':
          (await import('@mediabunny/aac-encoder')).registerAacEncoder();
          return;
        case 'flac':
          (await import('@mediabunny/flac-encoder')).registerFlacEncoder();
          return;
        case 'opus':
          mb.registerEncoder(await createOpusEncoderClass(mb));
          return;
      }
    })();
    registered.set(kind, done);
    done.catch(() => registered.delete(kind));
  }
  return done.then(() => loadMediabunny());
}

function outputFormatFor(mb: MediabunnyModule, kind: CodecKind, appendOnly: boolean): Mediabunny.OutputFormat {
  switch (kind) {
    case 'mp3':
      // No Xing frame from mediabunny: encodeWithCodec puts our Info frame with LAME's gapless fields in front (mp3-info-tag.ts).
      return new mb.Mp3OutputFormat({ xingHeader: false });
    case 'aac':
      return new mb.AdtsOutputFormat();
    case 'flac':
      return new mb.FlacOutputFormat({ appendOnly }); // STREAMINFO totals are rewritten at the end
    case 'opus':
      // Pages of at most 1 s, as opusenc writes them (its default --max-delay); 100 ms while streaming,
      // so a listener gets audio that often rather than every few kB.
      return new mb.OggOutputFormat({ maximumPageDuration: appendOnly ? 0.1 : 1 });
  }
}

/**
 * One encode session on an output target. FLAC takes 16-bit samples, so its files are 16-bit like
 * OpenAI's; the lossy encoders take floats.
 */
async function openSession(kind: CodecKind, sampleRateHz: number, bitrateBps: number, target: Mediabunny.Target, appendOnly: boolean) {
  const mb = await loadCodec(kind);
  const output = new mb.Output({ format: outputFormatFor(mb, kind, appendOnly), target });
  // FLAC is lossless: the quality level is a placeholder the encoder ignores.
  const quality = kind === 'flac' ? new mb.Quality('high') : new mb.Quality({ bitrate: Math.round(bitrateBps), bitrateMode: 'constant' });
  const source = new mb.AudioSampleSource({ codec: kind, quality });
  output.addAudioTrack(source);
  await output.start();
  let numWritten = 0;
  return {
    output,
    get numWritten() {
      return numWritten;
    },
    async write(pcm: Float32Array): Promise<void> {
      if (pcm.length === 0) return;
      const sample =
        kind === 'flac'
          ? new mb.AudioSample({ data: quantizeToInt16(pcm), format: 's16', numberOfChannels: 1, sampleRate: sampleRateHz, timestamp: numWritten / sampleRateHz })
          : new mb.AudioSample({ data: pcm, format: 'f32', numberOfChannels: 1, sampleRate: sampleRateHz, timestamp: numWritten / sampleRateHz });
      numWritten += pcm.length;
      try {
        await source.add(sample);
      } finally {
        sample.close();
      }
    },
  };
}

/**
 * Encodes a whole clip into a finished file: MP3 led by an Info frame whose LAME tag gives the encoder
 * delay and padding (decoders return exactly pcm.length samples), FLAC with complete STREAMINFO.
 */
export async function encodeWithCodec(kind: CodecKind, pcm: Float32Array, sampleRateHz: number, bitrateBps: number): Promise<Uint8Array> {
  const mb = await loadMediabunny();
  const target = new mb.BufferTarget();
  const session = await openSession(kind, sampleRateHz, bitrateBps, target, false);
  try {
    // One second per sample: the conversions mediabunny does on this thread stay short, so a long
    // clip does not stall the event loop (the encoding itself runs in the codec's worker).
    for (let start = 0; start < pcm.length; start += sampleRateHz) await session.write(pcm.subarray(start, start + sampleRateHz));
    await session.output.finalize();
  } catch (err) {
    await session.output.cancel().catch(() => {});
    throw err;
  }
  const bytes = new Uint8Array(target.buffer!);
  if (kind !== 'mp3') return bytes;
  const info = buildMp3InfoFrame(bytes, pcm.length);
  const out = new Uint8Array(info.length + bytes.length);
  out.set(info);
  out.set(bytes, info.length);
  return out;
}

/**
 * Opens an append-only encode: bytes reach `onBytes` as the muxer writes them (each MP3/ADTS frame,
 * each Ogg page, each FLAC frame), never rewritten. MP3 has no Xing frame and FLAC's STREAMINFO
 * leaves the total sample count unknown (0), as a live stream must.
 */
export async function openCodecStream(kind: CodecKind, sampleRateHz: number, bitrateBps: number, onBytes: BytesListener): Promise<CodecStream> {
  const mb = await loadMediabunny();
  let numBytes = 0;
  const sink = new WritableStream<Mediabunny.StreamTargetChunk>({
    write(chunk) {
      // Append-only by construction (the formats above never seek); a seek would corrupt the stream.
      if (chunk.position !== numBytes) throw new StudioError('internal', `the ${kind} muxer wrote at byte ${chunk.position} of a ${numBytes}-byte stream; a streamed format must only append`, { position: chunk.position, numBytes });
      numBytes += chunk.data.byteLength;
      onBytes(chunk.data);
    },
  });
  const session = await openSession(kind, sampleRateHz, bitrateBps, new mb.StreamTarget(sink), true);
  return {
    write: (pcm) => session.write(pcm),
    async end() {
      // A stream that never got audio has no file to finish (the muxers refuse an empty one).
      if (session.numWritten === 0) await session.output.cancel();
      else await session.output.finalize();
    },
    async cancel() {
      if (session.output.state === 'pending' || session.output.state === 'started') await session.output.cancel();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Opus: libopus (through opusscript's WebAssembly build) inside mediabunny's Ogg muxer.

const OPUS_FRAME_MS = 20;
/**
 * libopus's encoder lookahead in 48 kHz samples for the 'audio' application: Fs/400 (2.5 ms) plus
 * the delay compensation Fs/250 (4 ms), whatever the input rate (opus_encoder.c, OPUS_GET_LOOKAHEAD).
 * It is the Ogg pre-skip (RFC 7845 §4.2): the decoder drops that many samples at the start.
 */
export const OPUS_PRE_SKIP_48K = 312;
const OPUS_APPLICATION_AUDIO = 2049;
/** 25 packets = 0.5 s of audio ≈ 9 ms of CPU here (docs/benchmarks.md: 18 ms per audio second). */
const OPUS_FRAMES_PER_YIELD = 25;

/** OpusHead, the identification header (RFC 7845 §5.1): mono, channel mapping family 0. */
function opusHead(inputSampleRateHz: number): Uint8Array {
  const head = new Uint8Array(19);
  head.set([0x4f, 0x70, 0x75, 0x73, 0x48, 0x65, 0x61, 0x64]); // "OpusHead"
  const view = new DataView(head.buffer);
  view.setUint8(8, 1); // version
  view.setUint8(9, 1); // channel count
  view.setUint16(10, OPUS_PRE_SKIP_48K, true);
  view.setUint32(12, inputSampleRateHz, true); // informational: the rate we were given
  view.setInt16(16, 0, true); // output gain
  view.setUint8(18, 0); // mapping family
  return head;
}

async function createOpusEncoderClass(mb: MediabunnyModule): Promise<typeof Mediabunny.CustomAudioEncoder> {
  const OpusScript = (await import('opusscript')).default;

  /**
   * 20 ms packets. The last packet's duration is cut so the final granule position is exactly
   * pre-skip + input length (RFC 7845 §4.4), after enough zero padding to flush the lookahead.
   */
  class OpusEncoder extends mb.CustomAudioEncoder {
    private encoder: InstanceType<typeof OpusScript> | null = null;
    private frameSamples = 0;
    private frame = new Int16Array(0);
    private numInFrame = 0;
    private numInputSamples = 0;
    private numPackets = 0;
    private pendingMeta: EncodedAudioChunkMetadata | undefined;

    static override supports(codec: Mediabunny.AudioCodec, config: AudioEncoderConfig): boolean {
      return codec === 'opus' && config.numberOfChannels === 1 && CODEC_SAMPLE_RATES_HZ.opus.includes(config.sampleRate);
    }

    init(): void {
      const rate = this.config.sampleRate as 8000 | 12000 | 16000 | 24000 | 48000;
      this.encoder = new OpusScript(rate, 1, OPUS_APPLICATION_AUDIO);
      if (this.config.bitrate) this.encoder.setBitrate(this.config.bitrate);
      this.frameSamples = (rate * OPUS_FRAME_MS) / 1000;
      this.frame = new Int16Array(this.frameSamples);
      // Ogg Opus timestamps count 48 kHz samples whatever the input rate.
      this.pendingMeta = { decoderConfig: { codec: 'opus', numberOfChannels: 1, sampleRate: 48000, description: opusHead(rate) } };
    }

    /** Runs on the calling thread, so it yields every OPUS_FRAMES_PER_YIELD packets: a long clip never stalls the event loop for long. */
    async encode(sample: Mediabunny.AudioSample): Promise<void> {
      const pcm = new Float32Array(sample.numberOfFrames);
      sample.copyTo(pcm, { format: 'f32', planeIndex: 0 });
      const ints = quantizeToInt16(pcm);
      this.numInputSamples += ints.length;
      let numSinceYield = 0;
      for (let i = 0; i < ints.length; ) {
        const n = Math.min(ints.length - i, this.frameSamples - this.numInFrame);
        this.frame.set(ints.subarray(i, i + n), this.numInFrame);
        this.numInFrame += n;
        i += n;
        if (this.numInFrame === this.frameSamples) {
          this.emitFrame(OPUS_FRAME_MS / 1000);
          if (++numSinceYield === OPUS_FRAMES_PER_YIELD) {
            numSinceYield = 0;
            await new Promise<void>((resolve) => setImmediate(resolve));
          }
        }
      }
    }

    flush(): void {
      const rate = this.config.sampleRate;
      const frame48k = (48000 * OPUS_FRAME_MS) / 1000;
      const end48k = OPUS_PRE_SKIP_48K + Math.round((this.numInputSamples * 48000) / rate); // final granule position
      const numPacketsTotal = Math.ceil(end48k / frame48k);
      while (this.numPackets < numPacketsTotal) {
        this.frame.fill(0, this.numInFrame);
        this.numInFrame = this.frameSamples;
        const isLast = this.numPackets === numPacketsTotal - 1;
        this.emitFrame(isLast ? (end48k - this.numPackets * frame48k) / 48000 : OPUS_FRAME_MS / 1000);
      }
    }

    close(): void {
      this.encoder?.delete();
      this.encoder = null;
    }

    private emitFrame(durationS: number): void {
      const bytes = this.encoder!.encode(Buffer.from(this.frame.buffer, 0, this.frame.byteLength), this.frameSamples);
      const timestampS = (this.numPackets * OPUS_FRAME_MS) / 1000;
      this.numPackets++;
      this.numInFrame = 0;
      this.onPacket(new mb.EncodedPacket(new Uint8Array(bytes), 'key', timestampS, durationS), this.pendingMeta);
      this.pendingMeta = undefined;
    }
  }
  return OpusEncoder;
}
