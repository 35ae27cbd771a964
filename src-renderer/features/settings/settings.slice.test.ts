/**
 * The loudness setting: read back from storage when valid, the default when missing or out of
 * range; a bad value is refused with the range and leaves the setting as it was.
 */
import { describe, expect, it, beforeEach } from 'vitest';
import { DEFAULT_OUTPUT_LOUDNESS } from '../../../src-shared/audio-format';
import { resetStore, useStudioStore } from '../../store/store';
import { LOUDNESS_STORAGE_KEY, readOutputLoudness } from './settings.slice';

function memoryStorage(entries: Record<string, string> = {}): Storage {
  const map = new Map(Object.entries(entries));
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k), clear: () => map.clear(), key: () => null, length: map.size } as Storage;
}

describe('output loudness setting', () => {
  beforeEach(() => resetStore());

  it('reads a stored target and falls back to the default for a missing, broken or out-of-range one', () => {
    expect(readOutputLoudness(memoryStorage({ [LOUDNESS_STORAGE_KEY]: '{"targetLufs":-23,"truePeakCeilingDbtp":-2}' }))).toEqual({ targetLufs: -23, truePeakCeilingDbtp: -2 });
    expect(readOutputLoudness(memoryStorage())).toEqual(DEFAULT_OUTPUT_LOUDNESS);
    expect(readOutputLoudness(memoryStorage({ [LOUDNESS_STORAGE_KEY]: '{oops' }))).toEqual(DEFAULT_OUTPUT_LOUDNESS);
    expect(readOutputLoudness(memoryStorage({ [LOUDNESS_STORAGE_KEY]: '{"targetLufs":3,"truePeakCeilingDbtp":-1}' }))).toEqual(DEFAULT_OUTPUT_LOUDNESS);
    expect(readOutputLoudness(undefined)).toEqual(DEFAULT_OUTPUT_LOUDNESS);
  });

  it('sets a valid target and refuses an invalid one, naming the range', () => {
    const { setOutputLoudness } = useStudioStore.getState();
    expect(setOutputLoudness({ targetLufs: -23, truePeakCeilingDbtp: -2 })).toBe('');
    expect(useStudioStore.getState().outputLoudness).toEqual({ targetLufs: -23, truePeakCeilingDbtp: -2 });
    expect(setOutputLoudness({ targetLufs: -23, truePeakCeilingDbtp: 2 })).toBe('truePeakCeilingDbtp is 2 but must be from -9 to 0 dBTP; use -1');
    expect(setOutputLoudness({ targetLufs: Number.NaN, truePeakCeilingDbtp: -1 })).toContain('from -70 to -5 LUFS');
    expect(useStudioStore.getState().outputLoudness).toEqual({ targetLufs: -23, truePeakCeilingDbtp: -2 });
  });
});
