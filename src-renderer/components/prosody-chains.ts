/**
 * The effective rate, pitch and volume that nested <prosody> and <emphasis> give, read from the
 * markup as the parser combines them (relative changes multiply or add; emphasis is clamped), so
 * the tuning controls can keep every stretch inside the shared ranges (src-shared/prosody-limits.ts).
 * Only the portable forms the controls write (+n%, ±n st, ±n dB) are read; any other form of an
 * attribute makes that attribute unknown there. Pure.
 */
import { PROSODY_EMPHASIS_LEVELS, PROSODY_PITCH_RANGE_ST, PROSODY_RATE_RANGE, PROSODY_VOLUME_MAX_DB } from '../../src-shared/prosody-limits';
import type { Markup, Tag } from './ssml-markup';

export type Attribute = 'rate' | 'pitch' | 'volume';
/** Rate as a multiplier, pitch in semitones, volume in dB; null where a value in another form was met. */
export type Chain = Record<Attribute, number | null>;
export interface Extremes {
  lo: Chain;
  hi: Chain;
}

export const NEUTRAL: Chain = Object.freeze({ rate: 1, pitch: 0, volume: 0 });
export const ATTRIBUTES: readonly Attribute[] = ['rate', 'pitch', 'volume'];

const NUM = '(\\d+(?:\\.\\d+)?|\\.\\d+)';
const FORMS: Record<Attribute, RegExp> = { rate: new RegExp(`^([+-])${NUM}%$`), pitch: new RegExp(`^([+-]?)${NUM}st$`), volume: new RegExp(`^([+-]?)${NUM}dB$`) };

/** One attribute of a <prosody>: a change (factor for rate, addend otherwise), 'none' when absent, null when in another form. */
export function readChange(attribute: Attribute, raw: string | undefined): number | 'none' | null {
  if (raw === undefined) return 'none';
  const m = FORMS[attribute].exec(raw.trim());
  if (!m) return null;
  const v = (m[1] === '-' ? -1 : 1) * Number(m[2]);
  return attribute === 'rate' ? 1 + v / 100 : v;
}

function clamp(attribute: Attribute, v: number): number {
  if (attribute === 'rate') return Math.min(PROSODY_RATE_RANGE.max, Math.max(PROSODY_RATE_RANGE.min, v));
  if (attribute === 'pitch') return Math.min(PROSODY_PITCH_RANGE_ST.max, Math.max(PROSODY_PITCH_RANGE_ST.min, v));
  return Math.min(PROSODY_VOLUME_MAX_DB, v);
}

function combine(attribute: Attribute, base: number, change: number): number {
  return attribute === 'rate' ? base * change : base + change;
}

/** `chain` inside `tag` (a <prosody> or <emphasis>; other elements change nothing). */
export function applyTag(chain: Chain, tag: Pick<Tag, 'name' | 'attrs'>, clampEmphasis = true): Chain {
  if (tag.name === 'prosody') {
    const out = { ...chain };
    for (const a of ATTRIBUTES) {
      const c = readChange(a, tag.attrs[a]);
      if (c === null) out[a] = null;
      else if (c !== 'none' && out[a] !== null) out[a] = combine(a, out[a], c);
    }
    return out;
  }
  if (tag.name === 'emphasis') {
    const e = PROSODY_EMPHASIS_LEVELS[tag.attrs.level ?? 'moderate'] ?? PROSODY_EMPHASIS_LEVELS.moderate;
    const change: Chain = { rate: e.rate, pitch: e.pitchSemitones, volume: e.gainDb };
    const out = { ...chain };
    for (const a of ATTRIBUTES) {
      const v = out[a];
      if (v !== null) out[a] = clampEmphasis ? clamp(a, combine(a, v, change[a]!)) : combine(a, v, change[a]!);
    }
    return out;
  }
  return chain;
}

/** Whether `v` lies in `attribute`'s range (a hair of float slack: the parser rounds each step). */
export function inRange(attribute: Attribute, v: number): boolean {
  const eps = 1e-9;
  if (attribute === 'rate') return v >= PROSODY_RATE_RANGE.min - eps && v <= PROSODY_RATE_RANGE.max + eps;
  if (attribute === 'pitch') return v >= PROSODY_PITCH_RANGE_ST.min - eps && v <= PROSODY_PITCH_RANGE_ST.max + eps;
  return v <= PROSODY_VOLUME_MAX_DB + eps;
}

/** The chain in effect at the start of [from, to), from the elements around it except `skip` (open-tag indices). */
export function chainAround(m: Markup, from: number, to: number, skip: ReadonlySet<number> = new Set()): Chain {
  let chain: Chain = { ...NEUTRAL };
  m.tags.forEach((t, i) => {
    if (t.kind === 'open' && !skip.has(i) && t.to <= from && m.tags[t.partner].from >= to) chain = applyTag(chain, t);
  });
  return chain;
}

/** Lowest and highest change, relative to the range's start, that elements inside [from, to) reach (1/0/0 included: the bare text). */
export function extremesWithin(m: Markup, from: number, to: number): Extremes {
  const lo: Chain = { ...NEUTRAL };
  const hi: Chain = { ...NEUTRAL };
  const stack: Chain[] = [{ ...NEUTRAL }];
  for (const t of m.tags) {
    if (t.from < from || t.to > to) continue;
    if (t.kind === 'close') stack.pop();
    if (t.kind !== 'open') continue;
    // emphasis read unclamped here: clamping only narrows it, so the bounds stay safe
    const next = applyTag(stack[stack.length - 1], t, false);
    stack.push(next);
    for (const a of ATTRIBUTES) {
      const v = next[a];
      if (v === null || lo[a] === null) [lo[a], hi[a]] = [null, null];
      else [lo[a], hi[a]] = [Math.min(lo[a]!, v), Math.max(hi[a]!, v)];
    }
  }
  return { lo, hi };
}

/** The first stretch in the document whose known effective value leaves its range, as "rate 2.4×", or null. */
export function firstOutOfRange(m: Markup): string | null {
  const stack: Chain[] = [{ ...NEUTRAL }];
  for (const t of m.tags) {
    if (t.kind === 'close') stack.pop();
    if (t.kind !== 'open') continue;
    const next = applyTag(stack[stack.length - 1], t);
    stack.push(next);
    for (const a of ATTRIBUTES) {
      const v = next[a];
      if (v !== null && !inRange(a, v)) return `${a} ${Math.round(v * 100) / 100}${a === 'rate' ? '×' : a === 'pitch' ? ' st' : ' dB'}`;
    }
  }
  return null;
}
