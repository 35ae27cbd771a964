// Why Generate cannot run with the chosen voice: Base without a fitting clone, a saved voice made
// for another model, a speaker the CustomVoice model lacks; VoiceDesign speaks from its description.
import { describe, expect, it } from 'vitest';
import type { SavedVoice } from '../../../src-shared/contract/voices';
import { speakBlocker } from './speak-blocker';

const clone = (size: string): SavedVoice => ({ id: `v-00000000000${size === '0b6' ? 'a' : 'b'}`, name: `Clone ${size}`, kind: 'clone', createdAtMs: 1, model: { id: 'm', kind: 'base', size }, description: null, cloneMode: 'xvector', clip: null, warnings: [] });
const speakers = [{ name: 'ryan' }];

describe('speakBlocker', () => {
  it('blocks a Base model until a clone of its size is chosen', () => {
    const model = { kind: 'base' as const, size: '0b6' };
    expect(speakBlocker({ model, modelName: 'Base 0.6B', voice: 'ryan', speakers: [], savedVoices: [] })).toMatch(/speaks only cloned voices, and none fits it yet/);
    expect(speakBlocker({ model, modelName: 'Base 0.6B', voice: 'ryan', speakers: [], savedVoices: [clone('0b6')] })).toMatch(/Pick one under Saved voices \(Clone 0b6\)/);
    expect(speakBlocker({ model, modelName: 'Base 0.6B', voice: clone('1b7').id, speakers: [], savedVoices: [clone('1b7')] })).toMatch(/cannot speak on Base 0.6B: cloned with a 1.7B Base model/);
    expect(speakBlocker({ model, modelName: 'Base 0.6B', voice: clone('0b6').id, speakers: [], savedVoices: [clone('0b6')] })).toBeNull();
  });

  it('blocks a speaker the CustomVoice model lacks and lets VoiceDesign speak from its description', () => {
    expect(speakBlocker({ model: { kind: 'custom_voice', size: '0b6' }, modelName: 'CV', voice: 'ryan', speakers, savedVoices: [] })).toBeNull();
    expect(speakBlocker({ model: { kind: 'custom_voice', size: '0b6' }, modelName: 'CV', voice: 'bob', speakers, savedVoices: [] })).toBe('CV has no speaker "bob". Pick one of its speakers.');
    expect(speakBlocker({ model: { kind: 'voice_design', size: '1b7' }, modelName: 'VD', voice: 'ryan', speakers: [], savedVoices: [] })).toBeNull();
    expect(speakBlocker({ model: null, modelName: '', voice: 'ryan', speakers, savedVoices: [] })).toMatch(/Waiting/);
  });
});
