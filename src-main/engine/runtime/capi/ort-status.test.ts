import { describe, expect, it } from 'vitest';
import { studioCodeForOrtError, studioErrorFromStatus } from './ort-status';

describe('OrtStatus → StudioError', () => {
  it('maps ORT codes to studio codes', () => {
    expect(studioCodeForOrtError(2, 'Got invalid dimensions')).toBe('invalid-argument');
    expect(studioCodeForOrtError(3, 'Load model failed')).toBe('model-missing');
    expect(studioCodeForOrtError(7, 'Protobuf parsing failed')).toBe('model-invalid');
    expect(studioCodeForOrtError(11, 'provider bridge')).toBe('unsupported');
    expect(studioCodeForOrtError(6, 'Failed to allocate memory for requested buffer')).toBe('out-of-memory');
    expect(studioCodeForOrtError(1, 'other')).toBe('internal');
    expect(studioCodeForOrtError(1, 'Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.13: cannot open shared object file')).toBe('unsupported');
    expect(studioCodeForOrtError(1, 'Failed to get a WebGPU adapter: No supported adapters')).toBe('unsupported');
  });

  it('treats a sticky CUDA error (the context is unusable after it) as a lost device, so the engine stops', () => {
    // the message a captured CUDA graph's replay gave on the H200 (docs/benchmarks.md, issue 35)
    const replay = 'CUDA failure 700: an illegal memory access was encountered ; GPU=0 ; hostname=vm ; file=/onnxruntime_src/onnxruntime/core/providers/cuda/cuda_graph.cc ; line=85 ; expr=cudaStreamSynchronize(stream_);';
    expect(studioCodeForOrtError(1, replay)).toBe('device-lost');
    expect(studioCodeForOrtError(6, 'CUDA failure 999: unknown error')).toBe('device-lost');
    // an allocation failure is not sticky: the context lives on
    expect(studioCodeForOrtError(6, 'CUDA failure 2: out of memory; cudaErrorMemoryAllocation')).toBe('out-of-memory');
    expect(studioCodeForOrtError(1, 'CUDA failure 7000: not a code')).toBe('internal');
  });

  it('names the action, the ORT code and the fix', () => {
    const e = studioErrorFromStatus(2, 'bad dims', { action: 'running talker.onnx', fix: 'check the feed shapes' });
    expect(e.code).toBe('invalid-argument');
    expect(e.message).toBe('running talker.onnx failed (ORT INVALID_ARGUMENT): bad dims; check the feed shapes');
    expect(e.details.ortCode).toBe('INVALID_ARGUMENT');
  });
});
