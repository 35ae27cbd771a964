/**
 * The Models page's progress mapping: download bytes pass through, the build phase becomes a
 * 0…1000 bar from the builder's fraction, and phase names map onto the page's phases.
 */
import { describe, expect, it } from 'vitest';
import { toContractProgress } from './model-manager-port';

const base = { modelId: 'm', receivedBytes: 500, totalBytes: 2000, numFilesDone: 1, numFiles: 4, file: null, buildFraction: null, message: 'x' };

describe('toContractProgress', () => {
  it('passes download bytes through', () => {
    expect(toContractProgress({ ...base, phase: 'downloading' })).toEqual({ modelId: 'm', phase: 'download', numBytesDone: 500, numBytesTotal: 2000, message: 'x' });
  });

  it('shows the build as a fraction of 1000', () => {
    expect(toContractProgress({ ...base, phase: 'building', buildFraction: 0.25 })).toMatchObject({ phase: 'build', numBytesDone: 250, numBytesTotal: 1000 });
  });

  it('maps listing to download and verifying to verify', () => {
    expect(toContractProgress({ ...base, phase: 'listing' }).phase).toBe('download');
    expect(toContractProgress({ ...base, phase: 'verifying' }).phase).toBe('verify');
  });
});
