/**
 * Chunked codec decoding (spec §4.3–4.4): cuts codes [B, Q, T] into windows of new frames, prefixes
 * each with up to leftContextFrames earlier frames, decodes it with the injected `decode`, drops the
 * context samples and concatenates. A small first chunk gives fast first audio; chunks then double.
 * Pure: no ORT; the decode function is the ONNX session or the reference. Exact when
 * leftContextFrames covers the decoder's receptive field (codecReceptiveFieldFrames); the official
 * 8-layer, window-72 decoder needs ≈ 580 frames for that, so at 25 frames chunk seams are close to,
 * not equal to, a full decode.
 */
import { StudioError } from '../../../src-shared/errors';
import { sliceCodecFrames, type CodecCodes } from './codec-codes';

export interface ChunkedDecodeConfig {
  /** New frames per chunk once the schedule has grown to it (codecChunkSize). */
  chunkFrames: number;
  /** New frames in the first chunk (smaller → earlier first audio); later chunks double up to chunkFrames. */
  firstChunkFrames: number;
  /** Earlier frames decoded again in front of each chunk; at least MIN_LEFT_CONTEXT_FRAMES. */
  leftContextFrames: number;
}

/** The official wrapper's left context (chunked_decode(left_context_size=25)). */
export const MIN_LEFT_CONTEXT_FRAMES = 25;

export function defaultChunkedDecodeConfig(): ChunkedDecodeConfig {
  return { chunkFrames: 8, firstChunkFrames: 4, leftContextFrames: 25 };
}

/** Defaults with `overrides` applied; rejects unknown keys and bad values by key path; frozen. */
export function resolveChunkedDecodeConfig(overrides: Record<string, unknown> = {}, keyPath = 'codec.chunking'): Readonly<ChunkedDecodeConfig> {
  const config = defaultChunkedDecodeConfig();
  for (const [key, value] of Object.entries(overrides)) {
    if (!(key in config)) {
      throw new StudioError('invalid-argument', `unknown setting '${keyPath}.${key}'; valid keys are ${Object.keys(config).join(', ')}`, { key: `${keyPath}.${key}` });
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw new StudioError('invalid-argument', `'${keyPath}.${key}' must be a positive integer but is ${JSON.stringify(value)}`, { key: `${keyPath}.${key}` });
    }
    config[key as keyof ChunkedDecodeConfig] = value;
  }
  if (config.leftContextFrames < MIN_LEFT_CONTEXT_FRAMES) {
    throw new StudioError('invalid-argument', `'${keyPath}.leftContextFrames' is ${config.leftContextFrames} but must be at least ${MIN_LEFT_CONTEXT_FRAMES} (the official left context; less audibly changes chunk seams); raise it`, { key: `${keyPath}.leftContextFrames`, value: config.leftContextFrames, min: MIN_LEFT_CONTEXT_FRAMES });
  }
  return Object.freeze(config);
}

/** Decode frames [startFrame − contextFrames, endFrame); keep the samples of [startFrame, endFrame). */
export interface CodecChunk {
  startFrame: number;
  endFrame: number;
  contextFrames: number;
}

/**
 * The next chunk once `numDecodedFrames` are done and `numAvailableFrames` exist, or null when not
 * enough new frames have arrived yet. With `isFinal` the remainder is returned however short.
 * Streaming callers use this as frames arrive; planCodecChunks uses it for a finished sequence.
 */
export function nextCodecChunk(numDecodedFrames: number, numAvailableFrames: number, isFinal: boolean, config: ChunkedDecodeConfig): CodecChunk | null {
  const size = codecChunkSize(numDecodedFrames, config);
  const numNew = numAvailableFrames - numDecodedFrames;
  if (numNew <= 0 || (numNew < size && !isFinal)) return null;
  return {
    startFrame: numDecodedFrames,
    endFrame: numDecodedFrames + Math.min(size, numNew),
    contextFrames: Math.min(config.leftContextFrames, numDecodedFrames),
  };
}

/**
 * New frames of the chunk that starts after `numDecodedFrames`: firstChunkFrames, then each chunk
 * twice the one before, up to chunkFrames (1, 2, 4, 8, 8, …), so that a small first chunk gives
 * early audio while each later chunk still covers the time it takes to generate the next one.
 * With the defaults (4 then 8) this is 4, 8, 8, …. A flushed remainder restarts nothing: the
 * schedule depends only on how many frames are decoded.
 */
export function codecChunkSize(numDecodedFrames: number, config: ChunkedDecodeConfig): number {
  let start = 0;
  let size = Math.min(config.firstChunkFrames, config.chunkFrames);
  while (size < config.chunkFrames && start + size <= numDecodedFrames) {
    start += size;
    size = Math.min(2 * size, config.chunkFrames);
  }
  return size;
}

export function planCodecChunks(numFrames: number, config: ChunkedDecodeConfig): CodecChunk[] {
  const chunks: CodecChunk[] = [];
  for (let chunk = nextCodecChunk(0, numFrames, true, config); chunk; chunk = nextCodecChunk(chunk.endFrame, numFrames, true, config)) chunks.push(chunk);
  return chunks;
}

/** Decodes codes [B, Q, T] → PCM [B, T·samplesPerFrame]; `decode` must return [B, numFrames·samplesPerFrame]. */
export type CodecDecodeFn = (codes: CodecCodes) => Promise<Float32Array>;

export interface DecodedCodecChunk extends CodecChunk {
  /** [batchSize, (endFrame − startFrame) · samplesPerFrame], context samples already dropped. */
  pcm: Float32Array;
}

/** Yields each chunk's new PCM in order; the caller owns each `pcm` array. */
export async function* decodeCodecChunks(codes: CodecCodes, decode: CodecDecodeFn, samplesPerFrame: number, config: ChunkedDecodeConfig): AsyncGenerator<DecodedCodecChunk> {
  for (const chunk of planCodecChunks(codes.numFrames, config)) {
    const windowStart = chunk.startFrame - chunk.contextFrames;
    const numWindowSamples = (chunk.endFrame - windowStart) * samplesPerFrame;
    const windowPcm = await decode(sliceCodecFrames(codes, windowStart, chunk.endFrame));
    if (windowPcm.length !== codes.batchSize * numWindowSamples) {
      throw new StudioError('internal', `codec decode returned ${windowPcm.length} samples for ${codes.batchSize} × ${chunk.endFrame - windowStart} frames but ${codes.batchSize * numWindowSamples} were expected (${samplesPerFrame} per frame); check the decoder graph`, { numSamples: windowPcm.length, numExpected: codes.batchSize * numWindowSamples });
    }
    const numKeep = (chunk.endFrame - chunk.startFrame) * samplesPerFrame;
    const numDrop = chunk.contextFrames * samplesPerFrame;
    const pcm = new Float32Array(codes.batchSize * numKeep);
    for (let b = 0; b < codes.batchSize; b++) {
      const rowStart = b * numWindowSamples + numDrop;
      pcm.set(windowPcm.subarray(rowStart, rowStart + numKeep), b * numKeep);
    }
    yield { ...chunk, pcm };
  }
}

/** The whole sequence through decodeCodecChunks, concatenated: [B, T·samplesPerFrame]. */
export async function decodeChunked(codes: CodecCodes, decode: CodecDecodeFn, samplesPerFrame: number, config: ChunkedDecodeConfig = defaultChunkedDecodeConfig()): Promise<Float32Array> {
  const numSamples = codes.numFrames * samplesPerFrame;
  const out = new Float32Array(codes.batchSize * numSamples);
  for await (const chunk of decodeCodecChunks(codes, decode, samplesPerFrame, config)) {
    const numKeep = (chunk.endFrame - chunk.startFrame) * samplesPerFrame;
    for (let b = 0; b < codes.batchSize; b++) {
      out.set(chunk.pcm.subarray(b * numKeep, (b + 1) * numKeep), b * numSamples + chunk.startFrame * samplesPerFrame);
    }
  }
  return out;
}
