/** The provider table's derived answers: what 'auto' counts and pins devices like. */
import { describe, expect, it } from 'vitest';
import { deviceFactsFor, PROVIDERS } from './providers';

describe('deviceFactsFor', () => {
  it("gives a provider its own device facts and 'auto' those of the best-ranked lister on every platform (CUDA)", () => {
    expect(deviceFactsFor('dml')).toBe(PROVIDERS.dml.devices);
    expect(deviceFactsFor('webgpu')).toEqual({ lister: null, perEngine: 'one-adapter' });
    expect(deviceFactsFor('auto')).toEqual({ lister: 'nvidia-smi', perEngine: 'visible-env' });
    expect(deviceFactsFor('auto')).toBe(PROVIDERS.cuda.devices);
  });

  it('pins a name the table lacks by CUDA_VISIBLE_DEVICES without a lister', () => {
    expect(deviceFactsFor('metal')).toEqual({ lister: null, perEngine: 'visible-env' });
  });
});
