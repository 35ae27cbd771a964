/**
 * Sampling flags for `studio synth` (--temperature, --top-k, --top-p, --repetition-penalty,
 * --greedy, --max-new-tokens), checked by the same schema as the WebSocket contract and the HTTP
 * API, so a value refused there is refused here with the same field name.
 */
import type { Command } from 'commander';
import type { SamplingParams } from '../../src-shared/synthesis';
import { samplingParamsSchema } from '../api/schemas';
import { UsageError } from './cli-errors';

export interface SamplingFlags {
  temperature?: string;
  topK?: string;
  topP?: string;
  repetitionPenalty?: string;
  greedy?: boolean;
  maxNewTokens?: string;
}

export function addSamplingFlags(command: Command): Command {
  return command
    .option('--temperature <t>', 'sampling temperature (talker), 0.01 to 10')
    .option('--top-k <k>', 'keep the k most likely tokens, 0 to 4096 (0: all)')
    .option('--top-p <p>', 'nucleus sampling mass, in (0, 1]')
    .option('--repetition-penalty <r>', 'penalty for repeated codes, 1 to 10')
    .option('--greedy', 'always pick the most likely token (talker and code predictor); the seed no longer matters')
    .option('--max-new-tokens <n>', 'stop after this many frames, 1 to 8192');
}

const asNumber = (flag: string, value: string): number => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${flag} must be a number, got '${value}'`, `pass e.g. --${flag} 0.8`);
  return n;
};

/** The request's params from the flags given (undefined when none), validated by the contract's schema. */
export function samplingParamsFromFlags(flags: SamplingFlags): Partial<SamplingParams> | undefined {
  const params: Partial<SamplingParams> = {};
  if (flags.temperature !== undefined) params.temperature = asNumber('temperature', flags.temperature);
  if (flags.topK !== undefined) params.topK = asNumber('top-k', flags.topK);
  if (flags.topP !== undefined) params.topP = asNumber('top-p', flags.topP);
  if (flags.repetitionPenalty !== undefined) params.repetitionPenalty = asNumber('repetition-penalty', flags.repetitionPenalty);
  if (flags.maxNewTokens !== undefined) params.maxNewTokens = asNumber('max-new-tokens', flags.maxNewTokens);
  if (flags.greedy) Object.assign(params, { doSample: false, subtalkerDoSample: false });
  if (Object.keys(params).length === 0) return undefined;
  const parsed = samplingParamsSchema.safeParse(params);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = String(issue.path[0]).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    throw new UsageError(`--${flag}: ${issue.message}`, `see studio synth --help for the valid range of --${flag}`);
  }
  return parsed.data as Partial<SamplingParams>;
}
