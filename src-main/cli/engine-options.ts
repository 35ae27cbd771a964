/**
 * The engine flags shared by `studio bench` (inproc) and `studio serve`: --provider and
 * --engine-config '<json object>', turned into the engine-config overrides the runtime takes.
 * Bad JSON is a usage error (exit 2), reported before any engine host starts.
 */
import { UsageError } from './cli-errors';

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
