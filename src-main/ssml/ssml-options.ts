/**
 * Parser options: defaults in defaultSsmlOptions(), and resolveSsmlOptions(overrides), which
 * rejects unknown keys and wrong types naming the key path and returns a frozen value.
 * ssmlOptionsForRequest() is the one place a request's {dialect, lenient} and the model's facts
 * become parser options, so generation and the editor's live checks read a document alike.
 */
import { StudioError } from '../../src-shared/errors';
import { SSML_DIALECTS, type SsmlDialect, type SsmlRequestOptions } from '../../src-shared/synthesis';
import { QWEN_LANGUAGES } from './languages';
import { PROSODY_MAX_BREAK_MS } from '../../src-shared/prosody-limits';

/** What the parser knows about a speaker, for selecting one by gender or language. */
export interface VoiceTraits {
  name: string;
  gender: 'female' | 'male' | null;
  /** A model language name ('english', 'chinese', …) or 'unknown'. */
  nativeLanguage: string;
}

export interface SsmlOptions {
  /** true: unknown elements, attributes or values are errors; false: dropped with a warning. */
  strict: boolean;
  /**
   * Whose reading of SSML applies (dialects.ts): break strengths, percentage and keyword values,
   * vendor elements. 'auto' detects it from the document and reports what it chose.
   */
  dialect: SsmlDialect;
  /** UTF-8 size limit of the source. */
  maxBytes: number;
  maxDepth: number;
  maxElements: number;
  /** Speaker names a <voice name> may use (case-insensitive); null accepts any name. */
  knownVoices: string[] | null;
  /** Gender and native language per speaker, for <voice gender> and vendor voice names; null: unknown. */
  voiceTraits: VoiceTraits[] | null;
  /** Language names xml:lang may map to (the checkpoint's codec_language_id keys). */
  knownLanguages: string[];
  /** Speaking pitch assumed when pitch is given in Hz (prosody pitch="+20Hz" or "180Hz"). */
  referencePitchHz: number;
  /**
   * Language for say-as where no xml:lang applies: the request's language, or 'auto', which
   * reads the text around the say-as element (CJK there → chinese, else english).
   */
  sayAsLanguage: string;
  /** Longest break; longer ones are errors (strict) or clamped (lenient). */
  maxBreakMs: number;
}

export function defaultSsmlOptions(): SsmlOptions {
  return {
    strict: true,
    dialect: 'auto',
    maxBytes: 256 * 1024,
    maxDepth: 32,
    maxElements: 10_000,
    knownVoices: null,
    voiceTraits: null,
    knownLanguages: [...QWEN_LANGUAGES],
    referencePitchHz: 150,
    sayAsLanguage: 'auto',
    maxBreakMs: PROSODY_MAX_BREAK_MS,
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
    } else if (key === 'voiceTraits') {
      if (value !== null && !(Array.isArray(value) && value.every((v) => typeof v === 'object' && v !== null && typeof (v as VoiceTraits).name === 'string'))) fail(path, value, `${path} must be an array of {name, gender, nativeLanguage} or null`);
    } else if (key === 'knownLanguages') {
      if (!(Array.isArray(value) && value.every((v) => typeof v === 'string'))) fail(path, value, `${path} must be an array of language names`);
    } else if (key === 'dialect') {
      if (!(SSML_DIALECTS as readonly unknown[]).includes(value)) fail(path, value, `${path} must be one of ${SSML_DIALECTS.join(', ')}`, [...SSML_DIALECTS]);
    } else if (typeof value !== typeof expected || (typeof value === 'number' && !(Number.isFinite(value) && value > 0))) {
      fail(path, value, `${path} must be a ${typeof expected === 'number' ? 'positive number' : typeof expected}`);
    }
    out[key] = Array.isArray(value) ? Object.freeze([...value]) : value;
  }
  return Object.freeze(out) as unknown as SsmlOptions;
}

/** What the loaded model offers, as the engine host and the editor's validation know it. */
export interface SsmlModelFacts {
  voices: readonly { name: string; description?: string; nativeLanguage?: string }[] | null;
  /** Model language names; 'auto' is dropped. */
  languages: readonly string[] | null;
  /** The request's language ('auto' or a model language name). */
  requestLanguage?: string;
}

/** Speaker gender as its description says it ("Young woman…", "Older man…"); null when it does not. */
export function genderFromDescription(description: string | undefined): 'female' | 'male' | null {
  if (!description) return null;
  if (/\b(woman|girl|female|lady)\b/i.test(description)) return 'female';
  if (/\b(man|boy|male|gentleman)\b/i.test(description)) return 'male';
  return null;
}

/** The parser options for one request: its {dialect, lenient} plus the model's voices and languages. */
export function ssmlOptionsForRequest(request: SsmlRequestOptions | undefined, facts: SsmlModelFacts): SsmlOptionsInput {
  const languages = facts.languages?.filter((l) => l !== 'auto');
  const sayAs = facts.requestLanguage && facts.requestLanguage !== 'auto' ? facts.requestLanguage : 'auto';
  return {
    strict: request?.lenient !== true,
    dialect: request?.dialect ?? 'auto',
    knownVoices: facts.voices ? facts.voices.map((v) => v.name) : null,
    voiceTraits: facts.voices ? facts.voices.map((v) => ({ name: v.name, gender: genderFromDescription(v.description), nativeLanguage: v.nativeLanguage ?? 'unknown' })) : null,
    ...(languages && languages.length > 0 ? { knownLanguages: [...languages] } : {}),
    sayAsLanguage: sayAs,
  };
}

function fail(path: string, value: unknown, message: string, allowed: string[] = []): never {
  throw new StudioError('invalid-argument', `${message} (got ${JSON.stringify(value)})`, { field: path, value: String(value), allowed });
}
