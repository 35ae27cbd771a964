// The request's SSML reading reaches the parser: strict fails on a voice the model lacks, lenient
// plans it with a warning, the dialect changes what values mean, and auto says what it chose.
import { describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import type { SynthesisRequest, VoiceInfo } from '../../src-shared/synthesis';
import { planTurns } from './turn-plan';

const VOICES: VoiceInfo[] = [
  { name: 'ryan', description: 'Energetic man with a strong sense of rhythm', nativeLanguage: 'english', dialect: null },
  { name: 'serena', description: 'Young woman, soft and warm', nativeLanguage: 'chinese', dialect: null },
];
const FACTS = { voices: VOICES, languages: ['auto', 'english', 'chinese', 'french'] };

function request(input: string, ssmlOptions?: SynthesisRequest['ssmlOptions']): SynthesisRequest {
  return { requestId: 'r', input, inputFormat: 'ssml', voice: 'ryan', language: 'auto', seed: 1, ...(ssmlOptions ? { ssmlOptions } : {}) };
}

describe('planTurns with the request’s SSML reading', () => {
  it('fails strict and plans lenient for a voice the model does not have', () => {
    const doc = '<speak><voice name="bob">Hello.</voice></speak>';
    expect(() => planTurns(request(doc), FACTS)).toThrowError(StudioError);
    const plan = planTurns(request(doc, { lenient: true }), FACTS);
    expect(plan.turns).toMatchObject([{ text: 'Hello.', voice: 'ryan' }]);
    expect(plan.warnings[0]).toMatch(/^SSML 1:15: <voice> voice 'bob' is not a speaker/);
  });

  it('reads values in the requested dialect and says what auto detected', () => {
    const doc = '<speak><prosody rate="50%">Quick.</prosody></speak>';
    expect(planTurns(request(doc, { dialect: 'azure' }), FACTS).segments).toMatchObject([{ kind: 'turn', rate: 1.5 }]);
    expect(planTurns(request(doc), FACTS).segments).toMatchObject([{ kind: 'turn', rate: 0.5 }]);
    const azure = planTurns(request('<speak xmlns:mstts="https://www.w3.org/2001/mstts"><prosody rate="50%">Quick.</prosody></speak>'), FACTS);
    expect(azure.warnings[0]).toBe('SSML dialect: Azure (detected from xmlns:mstts on <speak>)');
  });

  it('picks a speaker by gender from the voices’ descriptions', () => {
    const plan = planTurns(request('<speak><voice gender="female">Hi.</voice></speak>'), FACTS);
    expect(plan.turns).toMatchObject([{ voice: 'serena' }]);
  });
});
