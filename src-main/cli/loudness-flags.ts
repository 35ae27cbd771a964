/**
 * Loudness flags for `studio synth` (--loudness-target, --true-peak): the recording's BS.1770
 * target and true-peak ceiling, checked against the same ranges as the contract and the HTTP API.
 * Either flag alone keeps the other at the studio default.
 */
import type { Command } from 'commander';
import { DEFAULT_OUTPUT_LOUDNESS, outputLoudnessProblem, type OutputLoudness } from '../../src-shared/audio-format';
import { UsageError } from './cli-errors';

export interface LoudnessFlags {
  loudnessTarget?: string;
  truePeak?: string;
}

export function addLoudnessFlags(command: Command): Command {
  const d = DEFAULT_OUTPUT_LOUDNESS;
  return command
    .option('--loudness-target <lufs>', `integrated loudness of the recording, in LUFS (default ${d.targetLufs})`)
    .option('--true-peak <dbtp>', `true-peak ceiling no sample may pass, in dBTP (default ${d.truePeakCeilingDbtp})`);
}

/** Number(' ') is 0 and Number('1e1') is 10: accept only plain decimals, so a typo is not a level. */
const asDecimal = (flag: string, value: string, unit: string): number => {
  if (!/^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*$/.test(value)) throw new UsageError(`${flag} must be a number of ${unit}, got '${value}'`, `pass e.g. ${flag} -16`);
  return Number(value);
};

/** The request's loudness, or undefined when neither flag is set (the host's default applies). */
export function loudnessFromFlags(flags: LoudnessFlags): OutputLoudness | undefined {
  if (flags.loudnessTarget === undefined && flags.truePeak === undefined) return undefined;
  const loudness: OutputLoudness = {
    targetLufs: flags.loudnessTarget === undefined ? DEFAULT_OUTPUT_LOUDNESS.targetLufs : asDecimal('--loudness-target', flags.loudnessTarget, 'LUFS'),
    truePeakCeilingDbtp: flags.truePeak === undefined ? DEFAULT_OUTPUT_LOUDNESS.truePeakCeilingDbtp : asDecimal('--true-peak', flags.truePeak, 'dBTP'),
  };
  const problem = outputLoudnessProblem(loudness, { targetLufs: '--loudness-target', truePeakCeilingDbtp: '--true-peak' });
  if (problem) {
    const cut = problem.indexOf('; ');
    throw new UsageError(problem.slice(0, cut), problem.slice(cut + 2));
  }
  return loudness;
}
