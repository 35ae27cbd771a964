/**
 * What each context-changing element does to the voice/language/prosody context, and how
 * long a <break> is. Value problems go to a Reporter, which throws in strict mode and
 * records a warning in lenient mode (then the value is dropped or clamped, as said here).
 */
import { languageFromTag } from './languages';
import { BREAK_STRENGTH_MS, EMPHASIS_LEVELS, PITCH_RANGE_ST, RATE_RANGE, SILENT_GAIN_DB, VOLUME_MAX_DB, parseBreakStrength, parseBreakTime, parsePitch, parseRate, parseVolume, type ValueResult } from './prosody-values';
import type { SsmlOptions } from './ssml-options';
import { roundValue, type TurnContext } from './turn-builder';

export interface Reporter {
  /** Strict: throws a positioned error. Lenient: records a warning and returns. */
  reject(attribute: string, value: string, allowed: readonly string[], message: string): void;
  /** Always a warning: accepted input that has no effect or was adjusted. */
  warn(attribute: string, message: string): void;
}

type Attributes = Record<string, string>;

/** Reads xml:lang (or the first of voice's `languages`) into context.language. */
export function applyLanguage(context: TurnContext, attrs: Attributes, attribute: string, options: Readonly<SsmlOptions>, report: Reporter): TurnContext {
  const raw = attrs[attribute];
  if (raw === undefined) return context;
  const tag = attribute === 'languages' ? raw.trim().split(/\s+/)[0] ?? '' : raw;
  const language = languageFromTag(tag);
  if (language === null || !options.knownLanguages.includes(language)) {
    const why = language === null ? `'${raw}' is not a language tag the model knows` : `'${raw}' means ${language}, which this model does not speak`;
    report.reject(attribute, raw, options.knownLanguages, `${why}; use a tag such as en-US or zh-CN for one of: ${options.knownLanguages.join(', ')}`);
    return context;
  }
  return { ...context, language };
}

export function applyVoice(context: TurnContext, attrs: Attributes, options: Readonly<SsmlOptions>, report: Reporter): TurnContext {
  let next = applyLanguage(context, attrs, attrs.languages !== undefined ? 'languages' : 'xml:lang', options, report);
  const name = attrs.name?.trim();
  const description = attrs.description?.trim();
  if (name) {
    if (description) report.warn('description', `voice has both name and description; the speaker '${name}' is used and the description is ignored`);
    const known = options.knownVoices;
    const match = known ? known.find((v) => v.toLowerCase() === name.toLowerCase()) : name.toLowerCase();
    if (match === undefined) {
      report.reject('name', name, known ?? [], `voice '${name}' is not a speaker of this model; use one of: ${(known ?? []).join(', ')}, or describe a voice with description="…"`);
      return next;
    }
    next = { ...next, voice: match, voiceDescription: null };
  } else if (description) {
    next = { ...next, voice: null, voiceDescription: description.replace(/\s+/g, ' ') };
  } else if (attrs.name !== undefined || attrs.description !== undefined) {
    report.reject(attrs.name !== undefined ? 'name' : 'description', '', [], 'voice name/description is empty; name a speaker or describe a voice');
  } else if (attrs.languages === undefined && attrs['xml:lang'] === undefined) {
    report.warn('name', 'voice without name or description keeps the current voice; selecting by gender, age or variant is not supported');
  }
  return next;
}

function checked(report: Reporter, attribute: string, raw: string, result: ValueResult, what: string): ValueResult | null {
  if (result.ok) return result;
  report.reject(attribute, raw, result.allowed, `'${raw}' is not a valid ${what}; use ${result.allowed.join(', ')}`);
  return null;
}

function clampToRange(report: Reporter, attribute: string, raw: string, value: number, min: number, max: number, unit: string): number {
  if (value >= min && value <= max) return value;
  const clamped = Math.min(max, Math.max(min, value));
  report.reject(attribute, raw, [`${min}${unit} to ${max}${unit} (effective, after nesting)`], `${attribute}="${raw}" gives an effective ${attribute} of ${roundValue(value)}${unit}, outside ${min}${unit}…${max}${unit}; use a smaller change (lenient mode clamps it to ${clamped}${unit})`);
  return clamped;
}

export function applyProsody(context: TurnContext, attrs: Attributes, options: Readonly<SsmlOptions>, report: Reporter): TurnContext {
  const next = { ...context };
  if (attrs.rate === undefined && attrs.pitch === undefined && attrs.volume === undefined) report.warn('rate', 'prosody without rate, pitch or volume changes nothing');
  if (attrs.rate !== undefined) {
    const r = checked(report, 'rate', attrs.rate, parseRate(attrs.rate, options.ratePercent), 'rate');
    if (r?.ok) next.rate = roundValue(clampToRange(report, 'rate', attrs.rate, r.mode === 'absolute' ? r.value : context.rate * r.value, RATE_RANGE.min, RATE_RANGE.max, '×'));
  }
  if (attrs.pitch !== undefined) {
    const r = checked(report, 'pitch', attrs.pitch, parsePitch(attrs.pitch, options.referencePitchHz), 'pitch');
    if (r?.ok) {
      if (/Hz$/.test(attrs.pitch.trim())) report.warn('pitch', `pitch in Hz is converted to semitones assuming a ${options.referencePitchHz} Hz speaking pitch`);
      next.pitchSemitones = roundValue(clampToRange(report, 'pitch', attrs.pitch, r.mode === 'absolute' ? r.value : context.pitchSemitones + r.value, PITCH_RANGE_ST.min, PITCH_RANGE_ST.max, ' st'));
    }
  }
  if (attrs.volume !== undefined) {
    const r = checked(report, 'volume', attrs.volume, parseVolume(attrs.volume), 'volume');
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

/** time wins over strength; neither means strength="medium". */
export function breakDurationMs(attrs: Attributes, options: Readonly<SsmlOptions>, report: Reporter): number {
  if (attrs.time !== undefined) {
    const r = checked(report, 'time', attrs.time, parseBreakTime(attrs.time), 'break time');
    if (r?.ok) {
      if (r.value <= options.maxBreakMs) return roundValue(r.value);
      report.reject('time', attrs.time, [`0ms to ${options.maxBreakMs}ms`], `break time ${attrs.time} is longer than ${options.maxBreakMs} ms; split it into several breaks or shorten it (lenient mode clamps it)`);
      return options.maxBreakMs;
    }
  }
  if (attrs.strength !== undefined) {
    const r = checked(report, 'strength', attrs.strength, parseBreakStrength(attrs.strength), 'break strength');
    if (r?.ok) return r.value;
  }
  return BREAK_STRENGTH_MS.medium;
}
