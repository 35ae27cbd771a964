/**
 * Post-processing configuration: defaults in one place (defaultAudioConfig) and
 * resolveAudioConfig(overrides), which rejects unknown keys and wrong types by key path
 * and returns a frozen value. Per-request loudness targets override `loudness` per call.
 */
import { StudioError } from '../../src-shared/errors';
import { DEFAULT_OUTPUT_LOUDNESS } from '../../src-shared/audio-format';
import type { LoudnessTarget } from './normalize-loudness';
import type { TimeStretchOptions } from './time-stretch';

export interface AudioConfig {
  /** Rate of the rendered recording; turns at other rates are resampled to it. */
  outputSampleRateHz: number;
  /** Raised-cosine fade length at every join (5–10 ms avoids clicks without smearing words). */
  crossfadeMs: number;
  timeStretch: TimeStretchOptions;
  /** Whole-recording target; a request may pass its own or null (no normalisation). */
  loudness: LoudnessTarget;
  /** Longest single break; SSML parsing enforces the same limit. */
  maxBreakMs: number;
}

export function defaultAudioConfig(): AudioConfig {
  return {
    outputSampleRateHz: 24000,
    crossfadeMs: 8,
    timeStretch: { frameMs: 30, searchMs: 8 },
    loudness: { ...DEFAULT_OUTPUT_LOUDNESS },
    maxBreakMs: 10_000,
  };
}

type Overrides<T> = { [K in keyof T]?: T[K] extends object ? Overrides<T[K]> : T[K] };

/** Merges overrides into the defaults; unknown keys and non-numbers are errors naming the path. */
export function resolveAudioConfig(overrides: Overrides<AudioConfig> = {}): Readonly<AudioConfig> {
  const merged = mergeChecked(defaultAudioConfig() as unknown as Record<string, unknown>, overrides as Record<string, unknown>, 'audio');
  return deepFreeze(merged) as unknown as AudioConfig;
}

function mergeChecked(base: Record<string, unknown>, overrides: Record<string, unknown>, path: string): Record<string, unknown> {
  if (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides)) {
    throw new StudioError('invalid-argument', `${path} must be an object of overrides`, { field: path });
  }
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    const keyPath = `${path}.${key}`;
    if (!(key in base)) {
      throw new StudioError('invalid-argument', `unknown config key ${keyPath}; known keys are ${Object.keys(base).join(', ')}`, { field: keyPath, allowed: Object.keys(base) });
    }
    if (value === undefined) continue;
    const current = base[key];
    if (typeof current === 'object' && current !== null) {
      out[key] = mergeChecked(current as Record<string, unknown>, value as Record<string, unknown>, keyPath);
    } else if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new StudioError('invalid-argument', `${keyPath} is ${JSON.stringify(value)} but must be a finite number`, { field: keyPath, value: String(value) });
    } else {
      out[key] = value;
    }
  }
  return out;
}

function deepFreeze(value: Record<string, unknown>): Record<string, unknown> {
  for (const v of Object.values(value)) if (typeof v === 'object' && v !== null) deepFreeze(v as Record<string, unknown>);
  return Object.freeze(value);
}
