import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addLoudnessFlags, loudnessFromFlags } from './loudness-flags';
import { UsageError } from './cli-errors';
import { thrown } from '../../src-shared/testing/thrown';

describe('loudnessFromFlags', () => {
  it('gives nothing when neither flag is set, so the host default applies', () => {
    expect(loudnessFromFlags({})).toBeUndefined();
  });

  it('takes both flags, and keeps the default for the one left out', () => {
    expect(loudnessFromFlags({ loudnessTarget: '-23', truePeak: '-2' })).toEqual({ targetLufs: -23, truePeakCeilingDbtp: -2 });
    expect(loudnessFromFlags({ loudnessTarget: '-23' })).toEqual({ targetLufs: -23, truePeakCeilingDbtp: -1 });
    expect(loudnessFromFlags({ truePeak: '-0.5' })).toEqual({ targetLufs: -16, truePeakCeilingDbtp: -0.5 });
  });

  it('refuses out-of-range values with the flag, the range and a fix', () => {
    const err = thrown<UsageError>(() => loudnessFromFlags({ loudnessTarget: '-3' }));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe('--loudness-target is -3 but must be from -70 to -5 LUFS');
    expect(err.fix).toMatch(/-16/);
    expect(() => loudnessFromFlags({ truePeak: '1' })).toThrow(/--true-peak is 1 but must be from -9 to 0 dBTP/);
  });

  it('refuses what is not a plain number, rather than reading it as 0 or 10', () => {
    for (const bad of ['', ' ', 'loud', '1e1', '-16LUFS', 'NaN']) expect(() => loudnessFromFlags({ loudnessTarget: bad })).toThrow(/--loudness-target must be a number of LUFS/);
    expect(() => loudnessFromFlags({ truePeak: 'x' })).toThrow(/--true-peak must be a number of dBTP/);
  });

  it('registers both flags with their defaults in the help', () => {
    const help = addLoudnessFlags(new Command('synth')).helpInformation();
    expect(help).toMatch(/--loudness-target <lufs>[\s\S]*default -16\)/);
    expect(help).toMatch(/--true-peak <dbtp>[\s\S]*default -1\)/);
  });
});
