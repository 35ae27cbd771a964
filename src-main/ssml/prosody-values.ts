/**
 * Value grammar for <prosody>, <emphasis> and <break>, as the studio reads it.
 * Each parser returns a Change (absolute: replaces the inherited value; relative: combines
 * with it) or a Rejection listing what is allowed. Keyword levels are the studio's own
 * choice (SSML 1.1 leaves them to the processor) and are kept small because DSP on speech
 * sounds processed at large factors.
 *
 * rate="30%": SSML 1.1 defines an unsigned percentage as a multiplier (30 % = 0.3× speed,
 * 100 % = unchanged); Azure reads it as a relative change (+30 % = 1.3×). We follow SSML 1.1
 * by default (options.ratePercent 'ssml11') and read signed values (+30 %, −10 %) as relative
 * changes, which means the same in both dialects; ratePercent 'azure' switches unsigned ones.
 */

export type Change = { ok: true; mode: 'absolute' | 'relative'; value: number };
export type Rejection = { ok: false; allowed: string[] };
export type ValueResult = Change | Rejection;

export const RATE_KEYWORDS: Record<string, number> = { 'x-slow': 0.6, slow: 0.8, medium: 1, fast: 1.25, 'x-fast': 1.5, default: 1 };
export const PITCH_KEYWORDS_ST: Record<string, number> = { 'x-low': -4, low: -2, medium: 0, high: 2, 'x-high': 4, default: 0 };
/** silent is a finite floor so the value survives JSON; −120 dB is inaudible. */
export const SILENT_GAIN_DB = -120;
export const VOLUME_KEYWORDS_DB: Record<string, number> = { silent: SILENT_GAIN_DB, 'x-soft': -12, soft: -6, medium: 0, loud: 3, 'x-loud': 6, default: 0 };
export const BREAK_STRENGTH_MS: Record<string, number> = { none: 0, 'x-weak': 150, weak: 300, medium: 500, strong: 800, 'x-strong': 1200 };

/** emphasis → prosody: rate multiplier, pitch and gain added to the inherited context. */
export const EMPHASIS_LEVELS: Record<string, { rate: number; pitchSemitones: number; gainDb: number }> = {
  strong: { rate: 0.9, pitchSemitones: 1, gainDb: 3 },
  moderate: { rate: 0.95, pitchSemitones: 0.5, gainDb: 1.5 },
  none: { rate: 1, pitchSemitones: 0, gainDb: 0 },
  reduced: { rate: 1.05, pitchSemitones: -0.5, gainDb: -3 },
};

/** Effective-value ranges after combining with the inherited context. */
export const RATE_RANGE = { min: 0.5, max: 2 };
export const PITCH_RANGE_ST = { min: -12, max: 12 };
export const VOLUME_MAX_DB = 20;

const NUM = '(\\d+(?:\\.\\d+)?|\\.\\d+)';
const UNSIGNED_PERCENT = new RegExp(`^${NUM}%$`);
const SIGNED_PERCENT = new RegExp(`^([+-])${NUM}%$`);
const BARE_NUMBER = new RegExp(`^${NUM}$`);
const SEMITONES = new RegExp(`^([+-]?)${NUM}st$`);
const SIGNED_HZ = new RegExp(`^([+-])${NUM}Hz$`);
const ABSOLUTE_HZ = new RegExp(`^${NUM}Hz$`);
const DECIBELS = new RegExp(`^([+-]?)${NUM}dB$`);
const TIME = new RegExp(`^${NUM}(ms|s)$`);

const RATE_ALLOWED = [...Object.keys(RATE_KEYWORDS), 'n% (SSML 1.1 multiplier, 120% = 1.2×)', '+n% / -n% (relative change)', 'n (multiplier, 1.2)'];
const PITCH_ALLOWED = [...Object.keys(PITCH_KEYWORDS_ST), '+n st / -n st', '+n% / -n%', '+nHz / -nHz', 'nHz'];
const VOLUME_ALLOWED = [...Object.keys(VOLUME_KEYWORDS_DB), '+n dB / -n dB', '+n% / -n%', '0-100 (absolute level)'];

function sign(s: string): number {
  return s === '-' ? -1 : 1;
}

export function parseRate(raw: string, ratePercent: 'ssml11' | 'azure'): ValueResult {
  const v = raw.trim();
  if (Object.hasOwn(RATE_KEYWORDS, v)) return { ok: true, mode: 'absolute', value: RATE_KEYWORDS[v] };
  let m = UNSIGNED_PERCENT.exec(v);
  if (m) {
    const p = Number(m[1]) / 100;
    return { ok: true, mode: 'relative', value: ratePercent === 'azure' ? 1 + p : p };
  }
  m = SIGNED_PERCENT.exec(v);
  if (m) return { ok: true, mode: 'relative', value: 1 + (sign(m[1]) * Number(m[2])) / 100 };
  m = BARE_NUMBER.exec(v);
  if (m) return { ok: true, mode: 'relative', value: Number(m[1]) };
  return { ok: false, allowed: RATE_ALLOWED };
}

export function parsePitch(raw: string, referencePitchHz: number): ValueResult {
  const v = raw.trim();
  if (Object.hasOwn(PITCH_KEYWORDS_ST, v)) return { ok: true, mode: 'absolute', value: PITCH_KEYWORDS_ST[v] };
  let m = SEMITONES.exec(v);
  if (m) return { ok: true, mode: 'relative', value: sign(m[1]) * Number(m[2]) };
  m = SIGNED_PERCENT.exec(v);
  if (m) {
    const factor = 1 + (sign(m[1]) * Number(m[2])) / 100;
    return factor > 0 ? { ok: true, mode: 'relative', value: 12 * Math.log2(factor) } : { ok: false, allowed: PITCH_ALLOWED };
  }
  m = SIGNED_HZ.exec(v);
  if (m) {
    const hz = referencePitchHz + sign(m[1]) * Number(m[2]);
    return hz > 0 ? { ok: true, mode: 'relative', value: 12 * Math.log2(hz / referencePitchHz) } : { ok: false, allowed: PITCH_ALLOWED };
  }
  m = ABSOLUTE_HZ.exec(v);
  if (m && Number(m[1]) > 0) return { ok: true, mode: 'absolute', value: 12 * Math.log2(Number(m[1]) / referencePitchHz) };
  return { ok: false, allowed: PITCH_ALLOWED };
}

export function parseVolume(raw: string): ValueResult {
  const v = raw.trim();
  if (Object.hasOwn(VOLUME_KEYWORDS_DB, v)) return { ok: true, mode: 'absolute', value: VOLUME_KEYWORDS_DB[v] };
  let m = DECIBELS.exec(v);
  if (m) return { ok: true, mode: 'relative', value: sign(m[1]) * Number(m[2]) };
  m = SIGNED_PERCENT.exec(v);
  if (m) {
    const factor = 1 + (sign(m[1]) * Number(m[2])) / 100;
    return { ok: true, mode: 'relative', value: factor > 0 ? 20 * Math.log10(factor) : SILENT_GAIN_DB };
  }
  m = BARE_NUMBER.exec(v);
  if (m && Number(m[1]) <= 100) {
    const level = Number(m[1]);
    return { ok: true, mode: 'absolute', value: level > 0 ? 20 * Math.log10(level / 100) : SILENT_GAIN_DB };
  }
  return { ok: false, allowed: VOLUME_ALLOWED };
}

/** break time="250ms" | "1.5s" → milliseconds. */
export function parseBreakTime(raw: string): ValueResult {
  const m = TIME.exec(raw.trim());
  if (!m) return { ok: false, allowed: ['n ms', 'n s'] };
  return { ok: true, mode: 'absolute', value: m[2] === 's' ? Number(m[1]) * 1000 : Number(m[1]) };
}

export function parseBreakStrength(raw: string): ValueResult {
  const v = raw.trim();
  return Object.hasOwn(BREAK_STRENGTH_MS, v) ? { ok: true, mode: 'absolute', value: BREAK_STRENGTH_MS[v] } : { ok: false, allowed: Object.keys(BREAK_STRENGTH_MS) };
}
