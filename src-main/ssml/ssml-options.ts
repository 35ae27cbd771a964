/**
 * Parser options: defaults in defaultSsmlOptions(), and resolveSsmlOptions(overrides), which
 * rejects unknown keys and wrong types naming the key path and returns a frozen value.
 */
import { StudioError } from '../../src-shared/errors';
import { QWEN_LANGUAGES } from './languages';

export interface SsmlOptions {
  /** true: unknown elements, attributes or values are errors; false: dropped with a warning. */
  strict: boolean;
  /** UTF-8 size limit of the source. */
  maxBytes: number;
  maxDepth: number;
  maxElements: number;
  /** Speaker names a <voice name> may use (case-insensitive); null accepts any name. */
  knownVoices: string[] | null;
  /** Language names xml:lang may map to (the checkpoint's codec_language_id keys). */
  knownLanguages: string[];
  /**
   * How an unsigned percentage rate such as rate="30%" reads. 'ssml11' (default): a multiplier
   * as SSML 1.1 defines it (30 % = 0.3× speed). 'azure': a relative change (+30 % = 1.3×).
   * Signed values (+30 %, −10 %) are relative changes in both modes.
   */
  ratePercent: 'ssml11' | 'azure';
  /** Speaking pitch assumed when pitch is given in Hz (prosody pitch="+20Hz" or "180Hz"). */
  referencePitchHz: number;
  /** Language for say-as when no xml:lang applies: 'auto' picks chinese if the text has CJK. */
  sayAsLanguage: string;
  /** Longest break; longer ones are errors (strict) or clamped (lenient). */
  maxBreakMs: number;
}

export function defaultSsmlOptions(): SsmlOptions {
  return {
    strict: true,
    maxBytes: 256 * 1024,
    maxDepth: 32,
    maxElements: 10_000,
    knownVoices: null,
    knownLanguages: [...QWEN_LANGUAGES],
    ratePercent: 'ssml11',
    referencePitchHz: 150,
    sayAsLanguage: 'auto',
    maxBreakMs: 10_000,
  };
}

export type SsmlOptionsInput = Partial<SsmlOptions>;

export function resolveSsmlOptions(overrides: SsmlOptionsInput = {}): Readonly<SsmlOptions> {
  const base = defaultSsmlOptions();
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    const path = `ssml.${key}`;
    if (!(key in base)) fail(path, value, `unknown option ${path}; known options are ${Object.keys(base).join(', ')}`, Object.keys(base));
    if (value === undefined) continue;
    const expected = (base as unknown as Record<string, unknown>)[key];
    if (key === 'knownVoices') {
      if (value !== null && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) fail(path, value, `${path} must be an array of speaker names or null`);
    } else if (key === 'knownLanguages') {
      if (!(Array.isArray(value) && value.every((v) => typeof v === 'string'))) fail(path, value, `${path} must be an array of language names`);
    } else if (key === 'ratePercent') {
      if (value !== 'ssml11' && value !== 'azure') fail(path, value, `${path} must be 'ssml11' or 'azure'`, ['ssml11', 'azure']);
    } else if (typeof value !== typeof expected || (typeof value === 'number' && !(Number.isFinite(value) && value > 0))) {
      fail(path, value, `${path} must be a ${typeof expected === 'number' ? 'positive number' : typeof expected}`);
    }
    out[key] = Array.isArray(value) ? Object.freeze([...value]) : value;
  }
  return Object.freeze(out) as unknown as SsmlOptions;
}

function fail(path: string, value: unknown, message: string, allowed: string[] = []): never {
  throw new StudioError('invalid-argument', `${message} (got ${JSON.stringify(value)})`, { field: path, value: String(value), allowed });
}
