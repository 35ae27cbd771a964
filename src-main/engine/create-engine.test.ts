/**
 * Which failures make provider 'auto' move on to its next candidate: a provider that does not load
 * (the C-API CUDA path reports 'unsupported') or graphs it cannot run; anything else is a real error.
 */
import { describe, expect, it } from 'vitest';
import { stageCaptureOptions, triesNextProvider } from './create-engine';

describe('triesNextProvider', () => {
  it('moves on when the provider cannot load or cannot run the graphs', () => {
    expect(triesNextProvider('unsupported')).toBe(true);
    expect(triesNextProvider('model-invalid')).toBe(true);
  });
  it('stops on errors that another provider would hit too', () => {
    for (const code of ['invalid-argument', 'internal', 'cancelled', 'not-found']) expect(triesNextProvider(code)).toBe(false);
  });
});

describe('stageCaptureOptions', () => {
  it('captures every capture-ready graph on WebGPU with capture on, none in bound mode', () => {
    for (const graph of ['talkerDecode', 'codePredictorLoopStatic', 'codecStreamStatic'] as const) {
      expect(stageCaptureOptions('on', 'webgpu', graph)).toEqual({ enableGraphCapture: '1' });
      expect(stageCaptureOptions('bound', 'webgpu', graph)).toEqual({});
    }
  });
  it("runs CUDA's streaming codec bound, uncaptured (its uneven Concats are not replay-safe), and captures the talker and loop", () => {
    expect(stageCaptureOptions('on', 'cuda', 'codecStreamStatic')).toEqual({});
    expect(stageCaptureOptions('on', 'cuda', 'talkerDecode')).toEqual({ enable_cuda_graph: '1' });
    expect(stageCaptureOptions('on', 'cuda', 'codePredictorLoopStatic')).toEqual({ enable_cuda_graph: '1' });
  });
});
