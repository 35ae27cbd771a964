/**
 * The engine flags shared by `studio serve`, `studio render`, `studio worker` and `studio bench`
 * (inproc): --model, --provider, --engine-config '<json object>' and --devices, and the engine-config
 * overrides the runtime takes from them. Bad JSON is a usage error (exit 2), reported before any
 * engine host starts.
 */
import type { Command } from 'commander';
import { UsageError } from './cli-errors';
import { listProviderChoices } from '../../src-shared/provider-names';

/** --model, --provider, --engine-config and --devices, for the commands that start engine hosts. */
export function addEngineFlags(command: Command): Command {
  return command
    .option('--model <dir>', "model folder, or 'embedded:tiny' (the synthetic default)")
    .option('--provider <name>', `execution provider (${listProviderChoices()})`)
    .option('--engine-config <json>', 'engine settings, e.g. {"maxRunningSequences":16}')
    .option('--devices <list>', "one engine host per device: 0,1,… or 'auto' (every GPU; CPU: that many processes sharing the cores)");
}

export function parseEngineConfig(json: string | undefined): Record<string, unknown> | undefined {
  if (json === undefined) return undefined;
  try {
    const value = JSON.parse(json) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new UsageError(`--engine-config must be a JSON object, got ${json}`, `e.g. --engine-config '{"minFramesCap":20,"framesPerTextToken":1}'`);
}

/** --engine-config with --provider on top (the provider flag wins over a "provider" key). */
export function engineOverridesFromFlags(flags: { provider?: string; engineConfig?: string }): Record<string, unknown> {
  return { ...parseEngineConfig(flags.engineConfig), ...(flags.provider ? { provider: flags.provider } : {}) };
}
