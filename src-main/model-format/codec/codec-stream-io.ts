/**
 * The codec decoder graph's interface as the engine drives it: input and output names of the window,
 * stream and static-stream graphs (model-builder/codec/codec-graph.ts builds them), and the host-side
 * writers of the static graph's attention mask, RoPE positions and carry joins. Names and pure array writes; no
 * graph building, no ORT.
 */
import { MASK_NEGATIVE } from '../onnx/composite-ops';

export const CODEC_GRAPH_INPUT = 'codes';
export const CODEC_GRAPH_OUTPUT = 'pcm';
/** Streaming graph: int64 [batch] frames each row decoded before (any count; at most slidingWindow − 1 are carried). */
export const CODEC_STREAM_NUM_CACHED = 'num_cached';
/** Static streaming graph: fp32 [batch, 1, 1, num_frames, W − 1 + num_frames] additive mask (0 seen, MASK_NEGATIVE not), from the host. */
export const CODEC_STATIC_ATTENTION_BIAS = 'attention_bias';
/** Static streaming graph, portable ops only (fused RoPE takes constant starts): int64 [1, num_frames] RoPE positions of the new frames (W − 1 …) and [1, W − 1 + num_frames] of the keys (0 …). */
export const CODEC_STATIC_QUERY_POSITIONS = 'query_positions';
export const CODEC_STATIC_KEY_POSITIONS = 'key_positions';

/**
 * The static streaming graph's mask for one call, written into `mask` [rows, 1, 1, numFrames, W − 1 + numFrames]:
 * what streamWindowMask computes in the stream graph. New frame i (key W − 1 + i) sees key j when
 * i ≤ j ≤ i + W − 1 and j ≥ W − 1 − numDecodedFrames[row] (a carried frame the row really decoded, or a new one).
 */
export function writeStreamStaticMask(mask: Float32Array, numDecodedFrames: readonly number[], numFrames: number, slidingWindow: number): void {
  const numCarried = slidingWindow - 1;
  const numKeys = numFrames + numCarried;
  numDecodedFrames.forEach((numDecoded, row) => {
    const firstReal = numCarried - numDecoded;
    for (let i = 0; i < numFrames; i++) {
      const line = mask.subarray((row * numFrames + i) * numKeys, (row * numFrames + i + 1) * numKeys);
      for (let j = 0; j < numKeys; j++) line[j] = j >= i && j <= i + numCarried && j >= firstReal ? 0 : MASK_NEGATIVE;
    }
  });
}

/** The static streaming graph's RoPE positions (portable ops): new frames W − 1 …, keys 0 …. */
export function writeStreamStaticPositions(queryPositions: BigInt64Array, keyPositions: BigInt64Array, slidingWindow: number): void {
  for (let i = 0; i < queryPositions.length; i++) queryPositions[i] = BigInt(slidingWindow - 1 + i);
  for (let j = 0; j < keyPositions.length; j++) keyPositions[j] = BigInt(j);
}

/** Static streaming graph: the gather join's host inputs (codec-graph-blocks.ts CodecStreamCarry), one pair per (axis, state length, frame scale). */
export const CODEC_STATIC_JOIN_PREFIX = 'join_';

/** The symbolic length of a join: numState entries plus num_frames · framesScale. */
export function joinLengthDim(numState: number, framesScale: number): string {
  return `num_frames${framesScale === 1 ? '' : `*${framesScale}`}+${numState}`;
}

/** A join's length and state length at `numFrames`, read from its dim (joinLengthDim's form). */
export function joinLength(dim: string | number, numFrames: number): { length: number; numState: number } {
  const m = /^num_frames(?:\*(\d+))?\+(\d+)$/.exec(String(dim));
  if (!m) throw new Error(`not a join length: ${String(dim)}`);
  const numState = Number(m[2]);
  return { length: numFrames * Number(m[1] ?? 1) + numState, numState };
}

/** A join's index (min(j, numState − 1)) and keep (1 for the state's entries, then 0) over its length. */
export function writeJoinInputs(index: Int32Array, keep: Float32Array, numState: number): void {
  for (let j = 0; j < index.length; j++) {
    index[j] = Math.min(j, numState - 1);
    keep[j] = j < numState ? 1 : 0;
  }
}
