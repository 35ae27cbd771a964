/**
 * Which failures make provider 'auto' move on to its next candidate: a provider that does not load
 * (the C-API CUDA path reports 'unsupported') or graphs it cannot run; anything else is a real error.
 */
import { describe, expect, it } from 'vitest';
import { triesNextProvider } from './create-engine';

describe('triesNextProvider', () => {
  it('moves on when the provider cannot load or cannot run the graphs', () => {
    expect(triesNextProvider('unsupported')).toBe(true);
    expect(triesNextProvider('model-invalid')).toBe(true);
  });
  it('stops on errors that another provider would hit too', () => {
    for (const code of ['invalid-argument', 'internal', 'cancelled', 'not-found']) expect(triesNextProvider(code)).toBe(false);
  });
});

