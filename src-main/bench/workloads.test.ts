// The processed workload carries its SSML reading (dialect ssml11, strict) to both targets, and
// its document reads as the two prosody turns and the break it is described as.
import { describe, expect, it } from 'vitest';
import { parseSsml } from '../ssml/parse-ssml';
import { toSynthesisRequest } from './inproc-target';
import { PROCESSED_SSML_OPTIONS, builtInWorkload } from './workloads';

describe('processed workload', () => {
  it('sends its SSML reading with the request', () => {
    const w = builtInWorkload('processed', 'ryan', 'english');
    expect(w.request.ssmlOptions).toEqual({ dialect: 'ssml11', lenient: false });
    const request = toSynthesisRequest({ ...w.request, seed: 42, stream: false }, 'r1');
    expect(request).toMatchObject({ inputFormat: 'ssml', ssmlOptions: { dialect: 'ssml11', lenient: false } });
    expect(toSynthesisRequest({ ...builtInWorkload('plain', 'ryan', 'english').request, seed: 42, stream: false }, 'r2').ssmlOptions).toBeUndefined();
  });

  it('reads as two turns with their own prosody around a 120 ms break', () => {
    const w = builtInWorkload('processed', 'ryan', 'english');
    const { segments, warnings } = parseSsml(w.request.ssml!, { strict: !PROCESSED_SSML_OPTIONS.lenient, dialect: PROCESSED_SSML_OPTIONS.dialect, knownVoices: ['ryan'] });
    expect(warnings).toEqual([]);
    expect(segments.map((s) => (s.kind === 'turn' ? `turn ${s.rate} ${s.pitchSemitones} ${s.volumeGainDb}` : s.kind === 'break' ? `break ${s.durationMs}` : s.kind))).toEqual(['turn 1.1 2 2', 'break 120', 'turn 0.9 -2 -3']);
  });
});
