/**
 * What each context-changing element does to the voice/language/prosody context, and how
 * long a <break> is, in the dialect being read. Value problems go to a Reporter, which throws
 * in strict mode and records a warning in lenient mode (then the value is dropped or clamped,
 * as said here). Approximations (a vendor voice name, a gender) are warnings in both modes.
 */
import type { DialectRules } from './dialects';
import { DIALECT_LABELS } from './dialects';
import { languageFromTag } from './languages';
import { EMPHASIS_LEVELS, PITCH_RANGE_ST, RATE_RANGE, SILENT_GAIN_DB, VOLUME_MAX_DB, parseBreakStrength, parseBreakTime, parsePitch, parseRate, parseVolume, type ValueResult } from './prosody-values';
import type { SsmlOptions } from './ssml-options';
import type { VoiceMapping } from './segments';
import { lookupVendorVoice, type VoiceVendor } from './vendor-voices/vendor-voice';
import { roundValue, type TurnContext } from './turn-builder';

export interface Reporter {
  /** Strict: throws a positioned error. Lenient: records a warning and returns. */
  reject(attribute: string, value: string, allowed: readonly string[], message: string): void;
  /** Always a warning: accepted input that has no effect or was adjusted. */
  warn(attribute: string, message: string): void;
}

/** One parse's reading rules: options, the dialect's tables, and vendor voice assignments. */
export interface ReadingRules {
  options: Readonly<SsmlOptions>;
  rules: DialectRules;
  /** Vendor voice name (or gender request) → the speaker it was given, so one name keeps one speaker. */
  assignedVoices: Map<string, string>;
  /** Each vendor voice name read, and the speaker it became (the parse result's voiceMappings). */
  voiceMappings: VoiceMapping[];
}

const VENDOR_LABELS: Record<VoiceVendor, string> = { azure: 'Azure', google: 'Google Cloud TTS', polly: 'Amazon Polly' };

type Attributes = Record<string, string>;

/** Reads xml:lang (or voice's `languages` / Google's `language`) into context.language. */
export function applyLanguage(context: TurnContext, attrs: Attributes, attribute: string, env: ReadingRules, report: Reporter): TurnContext {
  const raw = attrs[attribute];
  if (raw === undefined) return context;
  const options = env.options;
  const tag = attribute === 'languages' ? raw.trim().split(/\s+/)[0] ?? '' : raw;
  const language = languageFromTag(tag);
  if (language === null || !options.knownLanguages.includes(language)) {
    const why = language === null ? `'${raw}' is not a language tag the model knows` : `'${raw}' means ${language}, which this model does not speak`;
    report.reject(attribute, raw, options.knownLanguages, `${why}; use a tag such as en-US or zh-CN for one of: ${options.knownLanguages.join(', ')}`);
    return context;
  }
  return { ...context, language };
}

/**
 * A speaker for a voice the model does not have: the vendor name's (or the gender's) first
 * unused speaker, preferring those whose native language matches, so that two vendor voices in
 * a dialogue stay two voices. null when the model's speakers are not known.
 */
export function assignSpeaker(key: string, gender: 'female' | 'male' | null, language: string | null, env: ReadingRules): string | null {
  const already = env.assignedVoices.get(key);
  if (already) return already;
  const traits = env.options.voiceTraits;
  if (!traits || traits.length === 0) return null;
  const used = new Set(env.assignedVoices.values());
  const byGender = gender ? traits.filter((t) => t.gender === gender) : traits;
  const pool = byGender.length > 0 ? byGender : traits;
  const native = language ? pool.filter((t) => t.nativeLanguage === language) : [];
  const ordered = [...native, ...pool.filter((t) => !native.includes(t))];
  const pick = ordered.find((t) => !used.has(t.name)) ?? ordered[0];
  env.assignedVoices.set(key, pick.name);
  return pick.name;
}

export function applyVoice(context: TurnContext, attrs: Attributes, env: ReadingRules, report: Reporter): TurnContext {
  const options = env.options;
  const languageAttribute = attrs.languages !== undefined ? 'languages' : attrs.language !== undefined ? 'language' : 'xml:lang';
  let next = applyLanguage(context, attrs, languageAttribute, env, report);
  const name = attrs.name?.trim();
  const description = attrs.description?.trim();
  const gender = attrs.gender?.trim().toLowerCase();
  const requested = gender;
  if (name) {
    if (description) report.warn('description', `voice has both name and description; the speaker '${name}' is used and the description is ignored`);
    const known = options.knownVoices;
    const match = known ? known.find((v) => v.toLowerCase() === name.toLowerCase()) : name.toLowerCase();
    if (match !== undefined) return { ...next, voice: match, voiceDescription: null };
    const vendor = lookupVendorVoice(name);
    if (vendor === null) {
      report.reject('name', name, known ?? [], `voice '${name}' is not a speaker of this model; use one of: ${(known ?? []).join(', ')}, or describe a voice with description="…"`);
      return next;
    }
    const language = languageFromTag(vendor.locale);
    if (language !== null && options.knownLanguages.includes(language) && attrs[languageAttribute] === undefined) next = { ...next, language };
    // The vendor's published gender decides; a gender attribute only fills in where the vendor's table has no entry.
    const gender = vendor.gender ?? (requested === 'female' || requested === 'male' ? requested : null);
    const speaker = assignSpeaker(`name:${name}`, gender, next.language, env);
    const published = vendor.gender ? `${vendor.gender}, ${vendor.locale} in ${VENDOR_LABELS[vendor.vendor]}'s voice list` : `${vendor.locale}; its gender is not in the studio's ${VENDOR_LABELS[vendor.vendor]} voice table`;
    const speakerGender = speaker ? env.options.voiceTraits?.find((t) => t.name === speaker)?.gender : null;
    if (!env.voiceMappings.some((m) => m.vendorName === name)) env.voiceMappings.push({ vendorName: name, vendor: vendor.vendor, locale: vendor.locale, gender: vendor.gender, speaker });
    report.warn('name', `${VENDOR_LABELS[vendor.vendor]} voice '${name}' (${published}) is not a speaker of this model; ${speaker ? `speaker '${speaker}'${speakerGender ? ` (${speakerGender})` : ''}` : "the request's voice"} reads it${language ? ` in ${language}` : ''}`);
    return { ...next, voice: speaker, voiceDescription: null };
  }
  if (description) return { ...next, voice: null, voiceDescription: description.replace(/\s+/g, ' ') };
  if (attrs.name !== undefined || attrs.description !== undefined) {
    report.reject(attrs.name !== undefined ? 'name' : 'description', '', [], 'voice name/description is empty; name a speaker or describe a voice');
    return next;
  }
  if (gender !== undefined) {
    if (gender !== 'female' && gender !== 'male' && gender !== 'neutral') {
      report.reject('gender', attrs.gender, ['female', 'male', 'neutral'], `gender '${attrs.gender}' is not female, male or neutral`);
      return next;
    }
    if (gender === 'neutral') {
      report.warn('gender', 'gender "neutral" selects no particular speaker; the current voice is kept');
      return next;
    }
    const speaker = assignSpeaker(`gender:${gender}:${next.language ?? ''}:${attrs.variant ?? ''}`, gender, next.language, env);
    if (speaker === null) {
      report.warn('gender', `gender "${gender}" cannot select a speaker because the model's speakers are not known here; the current voice is kept`);
      return next;
    }
    return { ...next, voice: speaker, voiceDescription: null };
  }
  if (attrs[languageAttribute] === undefined) report.warn('name', 'voice without name, description, gender or language keeps the current voice; selecting by age or variant is not supported');
  return next;
}

function checked(report: Reporter, attribute: string, raw: string, result: ValueResult, what: string, env: ReadingRules): ValueResult | null {
  if (result.ok) return result;
  report.reject(attribute, raw, result.allowed, `'${raw}' is not a valid ${what} in ${DIALECT_LABELS[env.rules.name]}; use ${result.allowed.join(', ')}`);
  return null;
}

function clampToRange(report: Reporter, attribute: string, raw: string, value: number, min: number, max: number, unit: string): number {
  if (value >= min && value <= max) return value;
  const clamped = Math.min(max, Math.max(min, value));
  report.reject(attribute, raw, [`${min}${unit} to ${max}${unit} (effective, after nesting)`], `${attribute}="${raw}" gives an effective ${attribute} of ${roundValue(value)}${unit}, outside ${min}${unit}…${max}${unit}; use a smaller change (lenient mode clamps it to ${clamped}${unit})`);
  return clamped;
}

export function applyProsody(context: TurnContext, attrs: Attributes, env: ReadingRules, report: Reporter): TurnContext {
  const { options, rules } = env;
  const next = { ...context };
  if (attrs.rate === undefined && attrs.pitch === undefined && attrs.volume === undefined) report.warn('rate', 'prosody without rate, pitch or volume changes nothing');
  if (attrs.rate !== undefined) {
    const r = checked(report, 'rate', attrs.rate, parseRate(attrs.rate, rules), 'rate', env);
    if (r?.ok) next.rate = roundValue(clampToRange(report, 'rate', attrs.rate, r.mode === 'absolute' ? r.value : context.rate * r.value, RATE_RANGE.min, RATE_RANGE.max, '×'));
  }
  if (attrs.pitch !== undefined) {
    const r = checked(report, 'pitch', attrs.pitch, parsePitch(attrs.pitch, rules, options.referencePitchHz), 'pitch', env);
    if (r?.ok) {
      if (/Hz$/.test(attrs.pitch.trim())) report.warn('pitch', `pitch in Hz is converted to semitones assuming a ${options.referencePitchHz} Hz speaking pitch`);
      next.pitchSemitones = roundValue(clampToRange(report, 'pitch', attrs.pitch, r.mode === 'absolute' ? r.value : context.pitchSemitones + r.value, PITCH_RANGE_ST.min, PITCH_RANGE_ST.max, ' st'));
    }
  }
  if (attrs.volume !== undefined) {
    const r = checked(report, 'volume', attrs.volume, parseVolume(attrs.volume, rules, context.volumeGainDb), 'volume', env);
    if (r?.ok) {
      const gainDb = Math.max(SILENT_GAIN_DB, r.mode === 'absolute' ? r.value : context.volumeGainDb + r.value);
      next.volumeGainDb = roundValue(clampToRange(report, 'volume', attrs.volume, gainDb, SILENT_GAIN_DB, VOLUME_MAX_DB, ' dB'));
    }
  }
  return next;
}

export function applyEmphasis(context: TurnContext, attrs: Attributes, report: Reporter): TurnContext {
  let level = attrs.level ?? 'moderate';
  if (!Object.hasOwn(EMPHASIS_LEVELS, level)) {
    report.reject('level', level, Object.keys(EMPHASIS_LEVELS), `'${level}' is not an emphasis level; use ${Object.keys(EMPHASIS_LEVELS).join(', ')}`);
    level = 'moderate';
  }
  const e = EMPHASIS_LEVELS[level];
  return {
    ...context,
    rate: roundValue(Math.min(RATE_RANGE.max, Math.max(RATE_RANGE.min, context.rate * e.rate))),
    pitchSemitones: roundValue(Math.min(PITCH_RANGE_ST.max, Math.max(PITCH_RANGE_ST.min, context.pitchSemitones + e.pitchSemitones))),
    volumeGainDb: roundValue(Math.min(VOLUME_MAX_DB, Math.max(SILENT_GAIN_DB, context.volumeGainDb + e.gainDb))),
  };
}

/** A duration attribute ("2s", "500ms") within the break limit, or null. */
export function durationMs(attrs: Attributes, attribute: string, env: ReadingRules, report: Reporter): number | null {
  const raw = attrs[attribute];
  if (raw === undefined) return null;
  const r = checked(report, attribute, raw, parseBreakTime(raw), 'duration', env);
  if (!r?.ok) return null;
  if (r.value <= env.options.maxBreakMs) return roundValue(r.value);
  report.reject(attribute, raw, [`0ms to ${env.options.maxBreakMs}ms`], `${attribute} ${raw} is longer than ${env.options.maxBreakMs} ms; split it into several breaks or shorten it (lenient mode clamps it)`);
  return env.options.maxBreakMs;
}

/** time wins over strength; neither means the dialect's default break. */
export function breakDurationMs(attrs: Attributes, env: ReadingRules, report: Reporter): number {
  const time = durationMs(attrs, 'time', env, report);
  if (time !== null) return time;
  if (attrs.strength !== undefined) {
    const r = checked(report, 'strength', attrs.strength, parseBreakStrength(attrs.strength, env.rules), 'break strength', env);
    if (r?.ok) return r.value;
  }
  return env.rules.defaultBreakMs;
}
