import { describe, expect, it } from 'vitest';
import { parseSsml } from '../ssml/parse-ssml';
import { harmonicTone, sine } from './dsp-test-helpers';
import { measureIntegratedLoudness } from './loudness';
import { renderTimeline, type TimelineItem } from './pipeline';
import { timelineFromSegments } from './timeline-from-segments';
import { measureTruePeakDbtp } from './true-peak';

const RATE_HZ = 24000;
const turn = (turnIndex: number, pcm: Float32Array, extra: Partial<Extract<TimelineItem, { kind: 'turn' }>> = {}): TimelineItem => ({ kind: 'turn', turnIndex, voice: 'ryan', language: 'english', pcm, sampleRateHz: RATE_HZ, rate: 1, pitchSemitones: 0, gainDb: 0, ...extra });

describe('renderTimeline', () => {
  it('applies stretch, pitch and gain per turn, inserts exact breaks and reports spans and trace', () => {
    const a = harmonicTone(150, RATE_HZ, 1, 0.2);
    const b = harmonicTone(150, RATE_HZ, 1, 0.2);
    const out = renderTimeline({ items: [turn(0, a, { rate: 1.25, gainDb: -6 }), { kind: 'break', durationMs: 500 }, turn(1, b, { pitchSemitones: 2 })], loudness: null });
    // turn 0: 24000 / 1.25 = 19200 samples; break: 12000; turn 1: 24000 (pitch keeps length)
    expect(out.turnSpans).toEqual([{ turnIndex: 0, startSample: 0, endSample: 19200 }, { turnIndex: 1, startSample: 31200, endSample: 55200 }]);
    expect(out.pcm.length).toBe(55200);
    expect(out.pcm.subarray(19200, 31200).every((v) => v === 0)).toBe(true);
    expect(out.trace.turns.map((t) => [t.rate, t.pitchSemitones, t.gainDb, t.durationMs, t.breakBeforeMs])).toEqual([[1.25, 0, -6, 800, 0], [1, 2, 0, 1000, 500]]);
    const rms = (x: Float32Array) => Math.sqrt(x.reduce((s, v) => s + v * v, 0) / x.length);
    expect(20 * Math.log10(rms(out.pcm.subarray(2400, 16800)) / rms(out.pcm.subarray(33600, 52800)))).toBeCloseTo(-6, 0);
  });

  it('crossfades touching turns so the join has no jump larger than the signals themselves have', () => {
    const a = sine(200, RATE_HZ, 0.5, 0.5);
    const b = sine(300, RATE_HZ, 0.5, 0.5, Math.PI / 2); // starts at +0.5: a hard cut would jump by ~0.5
    const out = renderTimeline({ items: [turn(0, a), turn(1, b)], loudness: null });
    const maxStep = (x: Float32Array, from: number, to: number) => {
      let m = 0;
      for (let i = Math.max(1, from); i < to; i++) m = Math.max(m, Math.abs(x[i] - x[i - 1]));
      return m;
    };
    const intrinsic = 0.5 * 2 * Math.PI * 300 / RATE_HZ; // largest sample-to-sample change of b alone ≈ 0.039
    const join = out.turnSpans[1].startSample;
    expect(join).toBe(a.length - 192); // overlap = 8 ms at 24 kHz
    expect(maxStep(out.pcm, join - 10, join + 250)).toBeLessThan(intrinsic * 1.5);
    expect(Math.abs(out.pcm[0])).toBeLessThan(0.01); // faded in at the recording's start
    expect(Math.abs(out.pcm[out.pcm.length - 1])).toBeLessThan(0.01);
  });

  it('normalises the whole recording once to the target under the true-peak ceiling', () => {
    const items: TimelineItem[] = [turn(0, harmonicTone(140, RATE_HZ, 3, 0.05)), { kind: 'break', durationMs: 300 }, turn(1, harmonicTone(220, RATE_HZ, 3, 0.1))];
    const out = renderTimeline({ items, loudness: { targetLufs: -23, truePeakCeilingDbtp: -1 } });
    expect(Math.abs(measureIntegratedLoudness(out.pcm, RATE_HZ) - -23)).toBeLessThan(0.1);
    expect(Math.abs(out.trace.loudnessFinalLufs! - -23)).toBeLessThan(0.1);
    expect(out.trace.loudnessMeasuredLufs).not.toBeCloseTo(-23, 0);
    expect(measureTruePeakDbtp(out.pcm, RATE_HZ)).toBeLessThanOrEqual(-1);
    expect(out.trace.truePeakFinalDbtp!).toBeLessThanOrEqual(-1);
    const defaults = renderTimeline({ items }); // default target -16 LUFS
    expect(Math.abs(defaults.trace.loudnessFinalLufs! - -16)).toBeLessThan(0.1);
  });

  it('resamples turns at other rates and places marks in milliseconds', () => {
    const at48 = harmonicTone(150, 48000, 1, 0.2);
    const out = renderTimeline({ items: [{ kind: 'mark', name: 'start', turnIndex: null, turnFraction: 0 }, { ...turn(0, at48), sampleRateHz: 48000 } as TimelineItem, { kind: 'mark', name: 'half', turnIndex: 0, turnFraction: 0.5 }, { kind: 'break', durationMs: 250 }, { kind: 'mark', name: 'after', turnIndex: null, turnFraction: 0 }], loudness: null });
    expect(out.pcm.length).toBe(24000 + 6000);
    expect(out.marks).toEqual([{ name: 'start', timeMs: 0 }, { name: 'half', timeMs: 500 }, { name: 'after', timeMs: 1250 }]);
  });

  it('rejects breaks over the limit', () => {
    expect(() => renderTimeline({ items: [{ kind: 'break', durationMs: 10_001 }] })).toThrow(/durationMs is 10001/);
  });

  it('renders an SSML document end to end through timelineFromSegments', () => {
    const { segments } = parseSsml('<speak>Hello <mark name="m"/>there<break time="200ms"/><prosody rate="120%" volume="-3dB">faster</prosody></speak>');
    const turns = new Map([[0, { pcm: harmonicTone(150, RATE_HZ, 1, 0.2), sampleRateHz: RATE_HZ }], [1, { pcm: harmonicTone(150, RATE_HZ, 1.2, 0.2), sampleRateHz: RATE_HZ }]]);
    const items = timelineFromSegments(segments, { turns, audio: new Map(), defaultVoice: 'vivian', defaultLanguage: 'english' });
    const out = renderTimeline({ items, loudness: null });
    expect(out.turnSpans).toEqual([{ turnIndex: 0, startSample: 0, endSample: 24000 }, { turnIndex: 1, startSample: 28800, endSample: 52800 }]);
    expect(out.trace.turns.map((t) => [t.voice, t.rate, t.gainDb, t.breakBeforeMs])).toEqual([['vivian', 1, 0, 0], ['vivian', 1.2, -3, 200]]);
    // The mark sits after "Hello" (5 of "Hello there"'s 11 characters) in a 1000 ms turn.
    expect(out.marks).toHaveLength(1);
    expect(out.marks[0].name).toBe('m');
    expect(out.marks[0].timeMs).toBeCloseTo((5 / 11) * 1000, 6);
  });
});
