/**
 * Value grammar for <prosody>, <emphasis> and <break>, per dialect (dialects.ts holds the tables).
 * Each parser returns a Change (absolute: replaces the inherited value; relative: combines with
 * it) or a Rejection listing what is allowed.
 *
 * rate="30%": SSML 1.1, Polly and Google define an unsigned percentage as a multiplier (30 % =
 * 0.3× speed, 100 % = unchanged); Azure reads it as a relative change (+30 % = 1.3×). Signed
 * values (+30 %, −10 %) are relative changes everywhere, so they are the portable way to write it.
 */
import { SILENT_GAIN_DB, type DialectRules } from './dialects';
import { PROSODY_EMPHASIS_LEVELS, PROSODY_PITCH_RANGE_ST, PROSODY_RATE_RANGE, PROSODY_VOLUME_MAX_DB } from '../../src-shared/prosody-limits';

export { SILENT_GAIN_DB };

export type Change = { ok: true; mode: 'absolute' | 'relative'; value: number };
export type Rejection = { ok: false; allowed: string[] };
export type ValueResult = Change | Rejection;

/** emphasis → prosody: rate multiplier, pitch and gain added to the inherited context. */
export const EMPHASIS_LEVELS = PROSODY_EMPHASIS_LEVELS;

/** Effective-value ranges after combining with the inherited context (the editor's controls share them). */
export const RATE_RANGE = PROSODY_RATE_RANGE;
export const PITCH_RANGE_ST = PROSODY_PITCH_RANGE_ST;
export const VOLUME_MAX_DB = PROSODY_VOLUME_MAX_DB;

const NUM = '(\\d+(?:\\.\\d+)?|\\.\\d+)';
const UNSIGNED_PERCENT = new RegExp(`^${NUM}%$`);
const SIGNED_PERCENT = new RegExp(`^([+-])${NUM}%$`);
const BARE_NUMBER = new RegExp(`^${NUM}$`);
const SIGNED_NUMBER = new RegExp(`^([+-])${NUM}$`);
const SEMITONES = new RegExp(`^([+-]?)${NUM}st$`);
const SIGNED_HZ = new RegExp(`^([+-])${NUM}Hz$`);
const ABSOLUTE_HZ = new RegExp(`^${NUM}Hz$`);
const DECIBELS = new RegExp(`^([+-]?)${NUM}dB$`);
const TIME = new RegExp(`^${NUM}\\s*(ms|s)$`);

function sign(s: string): number {
  return s === '-' ? -1 : 1;
}

function percentFactor(signChar: string, digits: string): number {
  return 1 + (sign(signChar) * Number(digits)) / 100;
}

/** +n% / -n% as a factor (1 ± n/100), and a bare n% too where the dialect reads it as a change (Azure); null for anything else. */
function percentChange(v: string, rules: DialectRules): number | null {
  const signed = SIGNED_PERCENT.exec(v);
  if (signed) return percentFactor(signed[1], signed[2]);
  const unsigned = rules.unsignedPercent === 'relative' ? UNSIGNED_PERCENT.exec(v) : null;
  return unsigned ? percentFactor('', unsigned[1]) : null;
}

export function parseRate(raw: string, rules: DialectRules): ValueResult {
  const v = raw.trim();
  if (Object.hasOwn(rules.rateKeywords, v)) return { ok: true, mode: 'absolute', value: rules.rateKeywords[v] };
  let m = UNSIGNED_PERCENT.exec(v);
  if (m) {
    const p = Number(m[1]) / 100;
    return { ok: true, mode: 'relative', value: rules.unsignedPercent === 'relative' ? 1 + p : p };
  }
  m = SIGNED_PERCENT.exec(v);
  if (m) return { ok: true, mode: 'relative', value: percentFactor(m[1], m[2]) };
  m = BARE_NUMBER.exec(v);
  if (m) return { ok: true, mode: 'relative', value: Number(m[1]) };
  return { ok: false, allowed: [...Object.keys(rules.rateKeywords), rules.unsignedPercent === 'relative' ? 'n% (Azure: relative change, 50% = 1.5×)' : 'n% (multiplier, 120% = 1.2×)', '+n% / -n% (relative change)', 'n (multiplier, 1.2)'] };
}

export function parsePitch(raw: string, rules: DialectRules, referencePitchHz: number): ValueResult {
  const v = raw.trim();
  const allowed = [...Object.keys(rules.pitchKeywordsSt), '+n st / -n st', '+n% / -n%', ...(rules.unsignedPercent === 'relative' ? ['n% (relative)'] : []), '+nHz / -nHz', 'nHz'];
  if (Object.hasOwn(rules.pitchKeywordsSt, v)) return { ok: true, mode: 'absolute', value: rules.pitchKeywordsSt[v] };
  let m = SEMITONES.exec(v);
  if (m) return { ok: true, mode: 'relative', value: sign(m[1]) * Number(m[2]) };
  const factor = percentChange(v, rules);
  if (factor !== null) return factor > 0 ? { ok: true, mode: 'relative', value: 12 * Math.log2(factor) } : { ok: false, allowed };
  m = SIGNED_HZ.exec(v);
  if (m) {
    const hz = referencePitchHz + sign(m[1]) * Number(m[2]);
    return hz > 0 ? { ok: true, mode: 'relative', value: 12 * Math.log2(hz / referencePitchHz) } : { ok: false, allowed };
  }
  m = ABSOLUTE_HZ.exec(v);
  if (m && Number(m[1]) > 0) return { ok: true, mode: 'absolute', value: 12 * Math.log2(Number(m[1]) / referencePitchHz) };
  return { ok: false, allowed };
}

/**
 * Volume as a change in dB. currentGainDb is needed for Azure's "+10": a change of 10 on its
 * 0–100 level scale, whose default (100) is the model's own level.
 */
export function parseVolume(raw: string, rules: DialectRules, currentGainDb: number): ValueResult {
  const v = raw.trim();
  const allowed = [...Object.keys(rules.volumeKeywordsDb), '+n dB / -n dB', '+n% / -n%', ...(rules.unsignedPercent === 'relative' ? ['n% (relative)'] : []), '0-100 (absolute level)', ...(rules.signedVolumeNumber ? ['+n / -n (change on the 0-100 scale)'] : [])];
  if (Object.hasOwn(rules.volumeKeywordsDb, v)) return { ok: true, mode: 'absolute', value: rules.volumeKeywordsDb[v] };
  let m = DECIBELS.exec(v);
  if (m) return { ok: true, mode: 'relative', value: sign(m[1]) * Number(m[2]) };
  const factor = percentChange(v, rules);
  if (factor !== null) return { ok: true, mode: 'relative', value: factor > 0 ? 20 * Math.log10(factor) : SILENT_GAIN_DB };
  m = BARE_NUMBER.exec(v);
  if (m && Number(m[1]) <= 100) {
    const level = Number(m[1]);
    return { ok: true, mode: 'absolute', value: level > 0 ? 20 * Math.log10(level / 100) : SILENT_GAIN_DB };
  }
  m = rules.signedVolumeNumber ? SIGNED_NUMBER.exec(v) : null;
  if (m) {
    const level = 100 * 10 ** (currentGainDb / 20) + sign(m[1]) * Number(m[2]);
    return { ok: true, mode: 'absolute', value: level > 0 ? 20 * Math.log10(level / 100) : SILENT_GAIN_DB };
  }
  return { ok: false, allowed };
}

/** break time="250ms" | "1.5s" → milliseconds. */
export function parseBreakTime(raw: string): ValueResult {
  const m = TIME.exec(raw.trim());
  if (!m) return { ok: false, allowed: ['n ms', 'n s'] };
  return { ok: true, mode: 'absolute', value: m[2] === 's' ? Number(m[1]) * 1000 : Number(m[1]) };
}

export function parseBreakStrength(raw: string, rules: DialectRules): ValueResult {
  const v = raw.trim();
  return Object.hasOwn(rules.breakStrengthMs, v) ? { ok: true, mode: 'absolute', value: rules.breakStrengthMs[v] } : { ok: false, allowed: Object.keys(rules.breakStrengthMs) };
}
