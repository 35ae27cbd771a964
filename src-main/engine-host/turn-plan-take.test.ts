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

describe('planTurns for a new take of a turn in several parts', () => {
  const TUNED = `<speak><voice name="ryan">Hi.</voice><break time="100ms"/><voice name="vivian">One <prosody rate="80%">two <mark name="m"/>three</prosody><break time="50ms"/>four.</voice><break time="200ms"/><voice name="aiden">Bye.</voice></speak>`;

  it('plans all its parts as turn 0 with the break and mark between them, and none of the breaks around it', () => {
    const plan = planTurns(request({ input: TUNED, turnIndex: 1 }), FACTS);
    expect(plan.turns.map((t) => [t.index, t.dialogueTurnIndex, t.voice, t.text])).toEqual([
      [0, 0, 'vivian', 'One'],
      [1, 0, 'vivian', 'two three'],
      [2, 0, 'vivian', 'four.'],
    ]);
    expect(plan.segments).toMatchObject([
      { kind: 'turn', index: 0, dialogueTurnIndex: 0, rate: 1 },
      { kind: 'turn', index: 1, dialogueTurnIndex: 0, rate: 0.8 },
      { kind: 'mark', name: 'm', turnIndex: 1 },
      { kind: 'break', durationMs: 50 },
      { kind: 'turn', index: 2, dialogueTurnIndex: 0, rate: 1 },
    ]);
    expect(plan.segments).toHaveLength(5);
  });
});
