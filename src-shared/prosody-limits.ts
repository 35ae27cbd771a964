/**
 * The ranges SSML prosody is read within, shared by the parser (src-main/ssml clamps or rejects
 * effective values outside them) and the editor's tuning controls (which offer only values inside
 * them): speaking rate as a multiplier, pitch in semitones, volume gain in dB, the longest break,
 * what each emphasis level does.
 * Constants only.
 */

/** Effective speaking rate, as a multiplier of the voice's own (0.5× … 2×). */
export const PROSODY_RATE_RANGE = Object.freeze({ min: 0.5, max: 2 });
/** Effective pitch change in semitones. */
export const PROSODY_PITCH_RANGE_ST = Object.freeze({ min: -12, max: 12 });
/** Loudest effective volume gain in dB (quieter goes down to silence). */
export const PROSODY_VOLUME_MAX_DB = 20;
/** The longest <break> the parser accepts by default (ssml.maxBreakMs). */
export const PROSODY_MAX_BREAK_MS = 10_000;
/** What <emphasis level> does to the inherited prosody: rate multiplier, pitch and gain added (then clamped to the ranges above). */
export const PROSODY_EMPHASIS_LEVELS: Readonly<Record<string, { rate: number; pitchSemitones: number; gainDb: number }>> = Object.freeze({
  strong: { rate: 0.9, pitchSemitones: 1, gainDb: 3 },
  moderate: { rate: 0.95, pitchSemitones: 0.5, gainDb: 1.5 },
  none: { rate: 1, pitchSemitones: 0, gainDb: 0 },
  reduced: { rate: 1.05, pitchSemitones: -0.5, gainDb: -3 },
});
