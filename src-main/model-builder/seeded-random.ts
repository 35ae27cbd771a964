/**
 * Counter-based random numbers for synthetic weights: value i of a stream is a pure function of
 * (seed, stream name, i), so tensors can be generated in any order or in row chunks and still give
 * the same bytes. Murmur3's 32-bit finaliser as the mixer; pure, no state.
 */

/** murmur3's 32-bit finaliser. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit key for (seed, stream name). */
export function streamKey(seed: number, name: string): number {
  let h = fmix32(seed ^ 0x9e3779b9);
  for (let i = 0; i < name.length; i++) h = fmix32(h ^ Math.imul(name.charCodeAt(i) + 1, 0xcc9e2d51));
  return h;
}

/** Fills out[j] with amplitude · u(firstIndex + j), u uniform in [-1, 1), then adds offset. */
export function fillUniform(out: Float32Array, key: number, firstIndex: number, amplitude: number, offset = 0): void {
  for (let j = 0; j < out.length; j++) {
    const x = fmix32(fmix32(key + Math.imul(firstIndex + j, 0x9e3779b1)) ^ key);
    out[j] = offset + amplitude * ((x >>> 8) / 8388608 - 1);
  }
}
