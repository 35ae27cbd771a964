/**
 * Converts host float32 activations to and from a graph's activation dtype (float32, or float16
 * carried as Uint16Array bits since Node 20 has no Float16Array, perf-anchors §B.5).
 */
import { float16BitsToFloat32, float32ToFloat16Bits } from '../../model-format/float-bits';
import { tensor, type OrtTensor } from '../runtime/ort';

export type ActivationDtype = 'float32' | 'float16';
export type ActivationData = Float32Array | Uint16Array;

export function activationTensor(dtype: ActivationDtype, values: Float32Array, dims: readonly number[]): OrtTensor {
  return dtype === 'float16' ? tensor('float16', float32ToFloat16Bits(values), dims) : tensor('float32', values, dims);
}

/** A tensor's data as float32 (copied when widening fp16). */
export function toFloat32(t: OrtTensor): Float32Array {
  return t.type === 'float16' ? float16BitsToFloat32(t.data as Uint16Array) : (t.data as Float32Array);
}

export function emptyActivation(dtype: ActivationDtype, numValues: number): ActivationData {
  return dtype === 'float16' ? new Uint16Array(numValues) : new Float32Array(numValues);
}
