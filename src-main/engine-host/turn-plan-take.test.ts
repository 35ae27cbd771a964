// Planning a request into engine sequences: an SSML document gives one sequence per turn; with
// turnIndex only that turn is planned (one sequence), as turn 0 with its prosody and inner marks.
import { describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { planTurns } from './turn-plan';

const FACTS = { voices: ['ryan', 'vivian', 'aiden'], languages: ['auto', 'english'] };
const DOC = `<speak>
  <voice name="ryan">First turn.</voice>
  <break time="200ms"/>
  <voice name="vivian"><prosody rate="80%" volume="-3dB">Second <mark name="m"/>turn.</prosody></voice>
  <break time="100ms"/>
  <voice name="aiden">Third turn.</voice>
</speak>`;
const request = (extra: Partial<SynthesisRequest> = {}): SynthesisRequest => ({ requestId: 'r', input: DOC, inputFormat: 'ssml', voice: 'ryan', language: 'auto', seed: 1, ...extra });

describe('planTurns', () => {
  it('plans one sequence per turn for the whole document', () => {
    const plan = planTurns(request(), FACTS);
    expect(plan.turns.map((t) => t.voice)).toEqual(['ryan', 'vivian', 'aiden']);
    expect(plan.segments?.filter((s) => s.kind === 'break')).toHaveLength(2);
  });

  it('with turnIndex plans that turn alone (one sequence), renumbered 0, with its prosody and marks, no breaks', () => {
    const plan = planTurns(request({ turnIndex: 1 }), FACTS);
    expect(plan.turns).toEqual([expect.objectContaining({ index: 0, voice: 'vivian', text: expect.stringContaining('Second') })]);
    expect(plan.segments).toHaveLength(2);
    expect(plan.segments?.[0]).toMatchObject({ kind: 'turn', index: 0, voice: 'vivian', rate: 0.8, volumeGainDb: -3 });
    expect(plan.segments?.[1]).toMatchObject({ kind: 'mark', name: 'm', turnIndex: 0 });
  });

  it('refuses a turnIndex the document does not have, naming the fix', () => {
    expect(() => planTurns(request({ turnIndex: 3 }), FACTS)).toThrow(/not a turn of this document \(it has 3\).*generate it again/);
    expect(() => planTurns({ ...request({ turnIndex: 1 }), inputFormat: 'text', input: 'Hi.' }, FACTS)).toThrow(/not a turn of plain text/);
    expect(planTurns({ ...request({ turnIndex: 0 }), inputFormat: 'text', input: 'Hi.' }, FACTS).turns).toHaveLength(1);
  });
});
