import { describe, expect, it } from 'vitest';
import { defaultAudioConfig, resolveAudioConfig } from './audio-config';

describe('audio config', () => {
  it('has the documented defaults', () => {
    expect(defaultAudioConfig()).toEqual({
      outputSampleRateHz: 24000,
      crossfadeMs: 8,
      timeStretch: { frameMs: 30, searchMs: 8 },
      loudness: { targetLufs: -16, truePeakCeilingDbtp: -1 },
      maxBreakMs: 10_000,
    });
  });

  it('merges nested overrides into a frozen value and rejects unknown keys by path', () => {
    const config = resolveAudioConfig({ loudness: { targetLufs: -23 } });
    expect(config.loudness).toEqual({ targetLufs: -23, truePeakCeilingDbtp: -1 });
    expect(Object.isFrozen(config.loudness)).toBe(true);
    expect(() => resolveAudioConfig({ loudness: { targetLufS: -23 } } as never)).toThrow(/audio\.loudness\.targetLufS/);
    expect(() => resolveAudioConfig({ crossfadeMs: '8' } as never)).toThrow(/audio\.crossfadeMs/);
  });
});
