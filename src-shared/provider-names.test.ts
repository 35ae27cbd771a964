import { describe, expect, it } from 'vitest';
import { listProviderChoices, PROVIDER_CHOICES } from './provider-names';

describe('listProviderChoices', () => {
  it('lists auto then every provider, as the CLI help and the Settings hint print them', () => {
    expect(listProviderChoices()).toBe('auto, cpu, webgpu, cuda, dml');
    expect(listProviderChoices(' or ')).toBe('auto, cpu, webgpu, cuda or dml');
    expect(PROVIDER_CHOICES.join('|')).toBe('auto|cpu|webgpu|cuda|dml');
  });
});
