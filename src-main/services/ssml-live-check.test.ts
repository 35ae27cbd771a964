/**
 * The editor's live SSML check (studio:projects.validateSsml → validateWithStudioParser with
 * ssmlOptionsForRequest and the loaded model's facts) and generation's turn plan (planTurns) read a
 * document the same way: the same number of turns, or the same refusal. Documents as the editor's
 * tuning controls write them (src-renderer/components/ssml-tuning.ts), strict, lenient and Azure.
 */
import { describe, expect, it } from 'vitest';
import { ssmlOptionsForRequest } from '../ssml/ssml-options';
import { planTurns } from '../engine-host/turn-plan';
import { validateWithStudioParser } from './project-service';

const TUNED = '<speak>Hello there. <prosody rate="+50%" pitch="+12st" volume="+20dB">This part is tuned.</prosody> The end.</speak>';
const DOCS = [
  TUNED,
  TUNED.replace('The end.', '<emphasis level="moderate">The end.<break time="400ms"/></emphasis>'),
  TUNED.replace('<prosody', '<voice name="bob"><prosody').replace('</prosody>', '</prosody></voice>'), // a voice the model lacks
  TUNED.replace('+12st', '+13st'), // out of range: refused strict, clamped lenient
];

describe('live SSML check = generation', () => {
  it('gives the same turns or the same refusal', () => {
    // As the host passes them: the loaded model's VoiceInfo list and languages.
    const voices = ['ryan', 'vivian'].map((name) => ({ name, description: '', nativeLanguage: 'english', dialect: null }));
    const facts = { voices, languages: ['english'] };
    const outcomes = new Set<string>();
    for (const ssmlOptions of [{}, { lenient: true }, { dialect: 'azure' as const }]) {
      for (const text of DOCS) {
        const live = validateWithStudioParser(text, ssmlOptionsForRequest(ssmlOptions, { ...facts, requestLanguage: 'auto' }));
        let generated: number | string;
        try {
          const plan = planTurns({ requestId: 'r', input: text, inputFormat: 'ssml', voice: 'ryan', language: 'auto', seed: 1, ssmlOptions }, facts);
          generated = new Set(plan.turns.map((t) => t.dialogueTurnIndex)).size; // the dialogue turns the result's turnSpans report
        } catch (err) {
          generated = (err as Error).message;
        }
        expect(live.ok ? live.numTurns : live.diagnostics[0].message).toBe(generated);
        outcomes.add(typeof generated);
      }
    }
    expect(outcomes).toEqual(new Set(['number', 'string'])); // both accepted and refused documents were compared
  });
});
