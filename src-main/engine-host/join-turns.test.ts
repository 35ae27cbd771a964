/**
 * Plain text gets the same loudness target and true-peak ceiling as SSML: a loud clip (the model's
 * raw output can exceed full scale) comes out at the ceiling, a quiet one at the target, and the
 * trace reports the measured and final loudness; silence passes through.
 */
import { describe, expect, it } from 'vitest';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { defaultAudioConfig } from '../audio/audio-config';
import { measureIntegratedLoudness } from '../audio/loudness';
import { measureTruePeakDbtp } from '../audio/true-peak';
import { joinTurns } from './join-turns';
import type { TurnPlan } from './turn-plan';

const RATE = 24000;
const request = { requestId: 'r', input: 'x', inputFormat: 'text', voice: 'ryan', language: 'english', seed: 1 } as SynthesisRequest;
const plan: TurnPlan = { turns: [], segments: null, warnings: [] };
const noInserts = { audio: new Map(), warnings: [] };

function sine(amplitude: number, seconds = 3, hz = 220): Float32Array {
  const pcm = new Float32Array(RATE * seconds);
  for (let i = 0; i < pcm.length; i++) pcm[i] = amplitude * Math.sin((2 * Math.PI * hz * i) / RATE);
  return pcm;
}

function turnOf(pcm: Float32Array): SynthesisResult {
  return { pcm, sampleRateHz: RATE } as SynthesisResult;
}

describe('joinTurns, plain text', () => {
  const { targetLufs, truePeakCeilingDbtp } = defaultAudioConfig().loudness;

  it('brings a clip over full scale under the true-peak ceiling', () => {
    const loud = sine(1.6); // +4 dBTP, as the issue measured on raw plain-text output
    expect(measureTruePeakDbtp(loud, RATE)).toBeGreaterThan(3);
    const joined = joinTurns(request, plan, [turnOf(loud)], noInserts);
    expect(measureTruePeakDbtp(joined.pcm, RATE)).toBeLessThanOrEqual(truePeakCeilingDbtp);
    expect(joined.pcm.length).toBe(loud.length);
    expect(joined.trace?.loudnessMeasuredLufs).toBeGreaterThan(targetLufs);
    expect(joined.trace?.truePeakFinalDbtp).toBeLessThanOrEqual(truePeakCeilingDbtp);
    expect(joined.turnSpans).toEqual([{ turnIndex: 0, startSample: 0, endSample: loud.length }]);
  });

  it('raises a quiet clip to the loudness target', () => {
    const quiet = sine(0.01);
    const joined = joinTurns(request, plan, [turnOf(quiet)], noInserts);
    expect(measureIntegratedLoudness(joined.pcm, RATE)).toBeCloseTo(targetLufs, 1);
    expect(joined.trace?.loudnessFinalLufs).toBeCloseTo(targetLufs, 1);
    expect(joined.trace?.turns[0]).toMatchObject({ voice: 'ryan', language: 'english', rate: 1 });
  });

  it('passes silence through unchanged', () => {
    const silence = new Float32Array(RATE);
    const joined = joinTurns(request, plan, [turnOf(silence)], noInserts);
    expect(joined.pcm.every((x) => x === 0)).toBe(true);
    expect(joined.trace?.loudnessFinalLufs).toBeNull();
  });
});

describe('joinTurns, the request loudness target', () => {
  it('normalises plain text to the request target and ceiling instead of the default', () => {
    const quiet = sine(0.01);
    for (const targetLufs of [-23, -30]) {
      const joined = joinTurns({ ...request, loudness: { targetLufs, truePeakCeilingDbtp: -2 } }, plan, [turnOf(quiet)], noInserts);
      expect(measureIntegratedLoudness(joined.pcm, RATE)).toBeCloseTo(targetLufs, 1);
      expect(joined.trace?.loudnessFinalLufs).toBeCloseTo(targetLufs, 1);
    }
  });

  it('holds a lower ceiling over the target', () => {
    const loud = sine(0.5);
    const joined = joinTurns({ ...request, loudness: { targetLufs: -5, truePeakCeilingDbtp: -6 } }, plan, [turnOf(loud)], noInserts);
    expect(measureTruePeakDbtp(joined.pcm, RATE)).toBeLessThanOrEqual(-6);
    expect(measureTruePeakDbtp(joined.pcm, RATE)).toBeGreaterThan(-6.1);
  });

  it('normalises an SSML document to the request target', () => {
    const ssmlPlan: TurnPlan = {
      turns: [{ index: 0, dialogueTurnIndex: 0, text: 'a', voice: 'ryan', language: 'english', instruct: undefined }],
      segments: [{ kind: 'turn', index: 0, dialogueTurnIndex: 0, text: 'a', voice: 'ryan', language: 'english', rate: 1, pitchSemitones: 0, volumeGainDb: 0 }],
      warnings: [],
    };
    const joined = joinTurns({ ...request, inputFormat: 'ssml', loudness: { targetLufs: -27, truePeakCeilingDbtp: -1 } }, ssmlPlan, [turnOf(sine(0.02))], noInserts);
    expect(measureIntegratedLoudness(joined.pcm, RATE)).toBeCloseTo(-27, 1);
  });
});

describe('joinTurns, a missed loudness target', () => {
  /** A quiet tone with one click: its crest factor keeps it under the target at the ceiling. */
  function quietWithClick(): Float32Array {
    const pcm = sine(0.02);
    pcm[RATE] = 0.5;
    return pcm;
  }

  it('passes the warning on with the shortfall in LU, for plain text and SSML alike', () => {
    const ssmlPlan: TurnPlan = {
      turns: [{ index: 0, text: 'a', voice: 'ryan', language: 'english', instruct: undefined, dialogueTurnIndex: 0 }],
      segments: [{ kind: 'turn', index: 0, text: 'a', voice: 'ryan', language: 'english', rate: 1, pitchSemitones: 0, volumeGainDb: 0, dialogueTurnIndex: 0 }],
      warnings: [],
    };
    const loudness = { targetLufs: -16, truePeakCeilingDbtp: -1 };
    for (const [req, turnPlan] of [[{ ...request, loudness }, plan], [{ ...request, inputFormat: 'ssml', loudness } as SynthesisRequest, ssmlPlan]] as const) {
      const joined = joinTurns(req, turnPlan, [turnOf(quietWithClick())], noInserts);
      const shortfallLu = -16 - joined.trace!.loudnessFinalLufs!;
      expect(shortfallLu).toBeGreaterThan(1);
      expect(joined.warnings).toEqual([expect.stringContaining(`${shortfallLu.toFixed(1)} LU below the -16 LUFS target, because the -1 dBTP true-peak ceiling held the gain`)]);
    }
    expect(joinTurns({ ...request, loudness }, plan, [turnOf(sine(0.02))], noInserts).warnings).toEqual([]);
  });
});
