/**
 * Branded unit types, so that milliseconds, hertz, decibels, semitones and sample counts
 * cannot be mixed silently. Types and tiny converters only; no runtime dependencies.
 */

declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

export type Ms = Brand<number, 'Ms'>;
export type Hz = Brand<number, 'Hz'>;
export type Db = Brand<number, 'Db'>;
export type Semitones = Brand<number, 'Semitones'>;
export type Samples = Brand<number, 'Samples'>;

export const ms = (v: number): Ms => v as Ms;
export const hz = (v: number): Hz => v as Hz;
export const db = (v: number): Db => v as Db;
export const semitones = (v: number): Semitones => v as Semitones;
export const samples = (v: number): Samples => v as Samples;

export function msToSamples(durationMs: number, sampleRateHz: number): Samples {
  return Math.round((durationMs * sampleRateHz) / 1000) as Samples;
}

export function samplesToMs(numSamples: number, sampleRateHz: number): Ms {
  return ((numSamples * 1000) / sampleRateHz) as Ms;
}

export function dbToLinear(gainDb: number): number {
  return Math.pow(10, gainDb / 20);
}
