// Saved voices in a request's turns: a cloned voice becomes its speaker embedding and a designed one
// its description as instruct, by id or by name in any case, in plain text and SSML <voice name>
// (beside the model's speakers, and not over a <voice description>); a model of the wrong kind or
// size is refused naming the checkpoint to pull.
import { describe, expect, it } from 'vitest';
import type { SavedVoiceConditioning } from '../../src-shared/contract/voices';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { conditioningFor, findSavedVoice } from './saved-voices';
import { planTurns } from './turn-plan';

const ANNA: SavedVoiceConditioning = { id: 'v-0123456789ab', name: 'Anna Reads', kind: 'clone', modelKind: 'base', modelSize: '0b6', prompt: { mode: 'xvector', embedding: [0.1, 0.2] } };
const CALM: SavedVoiceConditioning = { id: 'v-ba9876543210', name: 'Calm', kind: 'design', modelKind: 'voice_design', modelSize: '1b7', description: 'a calm elderly woman' };
const BASE = { voices: [], languages: ['auto', 'english'], model: { kind: 'base', size: '0b6' } };
const DESIGN = { voices: [], languages: ['auto', 'english'], model: { kind: 'voice_design', size: '1b7' } };

function request(input: string, voice: string, inputFormat: 'text' | 'ssml' = 'text'): SynthesisRequest {
  return { requestId: 'r', input, inputFormat, voice, language: 'auto', seed: 1, savedVoices: [ANNA, CALM] };
}

describe('saved voices', () => {
  it('finds a voice by id or by name in any case, and nothing for other names', () => {
    expect(findSavedVoice('v-0123456789ab', [ANNA, CALM])).toBe(ANNA);
    expect(findSavedVoice('anna READS', [ANNA, CALM])).toBe(ANNA);
    expect(findSavedVoice('ryan', [ANNA, CALM])).toBeNull();
    expect(findSavedVoice('', [ANNA])).toBeNull();
    expect(findSavedVoice('Anna Reads', undefined)).toBeNull();
  });

  it('gives a clone its embedding and a design its description', () => {
    expect(conditioningFor(ANNA, { kind: 'base', size: '0b6' })).toEqual({ speakerEmbedding: [0.1, 0.2], warnings: [] });
    expect(conditioningFor(CALM, { kind: 'voice_design', size: '1b7' })).toEqual({ instruct: 'a calm elderly woman', warnings: [] });
    expect(conditioningFor({ ...ANNA, prompt: { ...ANNA.prompt!, mode: 'icl', refCodes: [[1, 2]], refText: 'hi' } }, { kind: 'base', size: '0b6' })).toEqual({ speakerEmbedding: [0.1, 0.2], refCodes: [[1, 2]], refText: 'hi', warnings: [] });
  });

  it('refuses the wrong model kind or size naming what to pull', () => {
    expect(() => conditioningFor(ANNA, { kind: 'custom_voice', size: '0b6' })).toThrow(/speaks only on a Base model, but the loaded model is CustomVoice 0.6B; pull Qwen3-TTS-12Hz-0.6B-Base/);
    expect(() => conditioningFor(CALM, { kind: 'base', size: '0b6' })).toThrow(/speaks only on a VoiceDesign model.*pull Qwen3-TTS-12Hz-1.7B-VoiceDesign/);
    expect(() => conditioningFor(ANNA, { kind: 'base', size: '1b7' })).toThrow(/cloned with a 0.6B Base model and speaks only on one of that size/);
  });

  it('plans plain text in a saved voice: no speaker name reaches the engine', () => {
    const plan = planTurns(request('Hello.', 'anna reads'), BASE);
    expect(plan.turns).toEqual([{ index: 0, dialogueTurnIndex: 0, text: 'Hello.', voice: 'Anna Reads', savedVoiceId: ANNA.id, language: 'auto', instruct: undefined, speakerEmbedding: [0.1, 0.2] }]);
    expect(planTurns(request('Hello.', CALM.id), DESIGN).turns[0]).toMatchObject({ voice: 'Calm', instruct: 'a calm elderly woman' });
    // without model facts (older callers) names pass through untouched
    const untouched = planTurns(request('Hello.', 'Anna Reads'), { voices: [], languages: ['auto'] }).turns[0];
    expect(untouched.voice).toBe('Anna Reads');
    expect(untouched).not.toHaveProperty('savedVoiceId');
  });

  it('resolves SSML <voice name> to saved voices, keeps a <voice description> as written, and refuses unknown names listing saved ones', () => {
    const plan = planTurns(request('<speak>One. <voice name="ANNA READS">Two.</voice></speak>', ANNA.id, 'ssml'), BASE);
    expect(plan.turns.map((t) => [t.voice, t.speakerEmbedding])).toEqual([
      ['Anna Reads', [0.1, 0.2]],
      ['Anna Reads', [0.1, 0.2]],
    ]);
    const design = planTurns(request('<speak><voice name="calm">A.</voice><voice description="a young man">B.</voice></speak>', 'Calm', 'ssml'), DESIGN);
    expect(design.turns.map((t) => t.instruct)).toEqual(['a calm elderly woman', 'a young man']);
    expect(() => planTurns(request('<speak><voice name="Bob">x</voice></speak>', ANNA.id, 'ssml'), BASE)).toThrow(/voice 'Bob' is not a speaker of this model; use one of: Anna Reads, Calm/);
  });
});
