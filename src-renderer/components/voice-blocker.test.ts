// The Timeline's Generate blocker: every turn's voice is checked (each <voice name>, the chosen voice
// for text outside them), saved voices by name or id, with the turn's voice named in the reason.
import { describe, expect, it } from 'vitest';
import type { SavedVoice } from '../../src-shared/contract/voices';
import { documentVoiceBlocker, documentVoices } from './voice-blocker';

const anna: SavedVoice = { id: 'v-00000000000a', name: 'Anna', kind: 'clone', createdAtMs: 1, model: { id: 'm', kind: 'base', size: '0b6' }, description: null, cloneMode: 'xvector', clip: null, warnings: [] };
const customVoice = { model: { kind: 'custom_voice' as const, size: '0b6' }, modelName: 'CV 0.6B', speakers: [{ name: 'ryan' }, { name: 'vivian' }], savedVoices: [anna] };

describe('documentVoices', () => {
  it('lists each <voice name> once in order, and the chosen voice where text stands outside a <voice>', () => {
    expect(documentVoices('<speak><voice name="ryan">a</voice><voice name="bob">b</voice><voice name="ryan">c</voice></speak>', 'ssml', 'vivian')).toEqual(['ryan', 'bob']);
    expect(documentVoices('<speak>Hi <voice name="bob">b</voice></speak>', 'ssml', 'vivian')).toEqual(['vivian', 'bob']);
    expect(documentVoices('<speak><voice description="calm">b</voice></speak>', 'ssml', 'vivian')).toEqual([]);
    expect(documentVoices('plain words', 'text', 'vivian')).toEqual(['vivian']);
    expect(documentVoices('<speak><voice name="bob">unclosed</speak>', 'ssml', 'vivian')).toEqual(['vivian']);
  });
});

describe('documentVoiceBlocker', () => {
  it("names the turn's voice the CustomVoice model lacks, and passes when every turn's voice is its own", () => {
    const doc = '<speak><voice name="ryan">a</voice><voice name="bob">b</voice></speak>';
    expect(documentVoiceBlocker({ ...customVoice, doc, format: 'ssml', chosenVoice: 'ryan' })).toBe('A turn\'s voice "bob": CV 0.6B has no speaker "bob". Pick one of its speakers.');
    expect(documentVoiceBlocker({ ...customVoice, doc: doc.replace('bob', 'vivian').replace('bob', 'vivian'), format: 'ssml', chosenVoice: 'ryan' })).toBeNull();
  });

  it('read leniently, checks the chosen voice for a name the model does not know (the parser falls back to it)', () => {
    const doc = '<speak><voice name="bob">b</voice></speak>';
    expect(documentVoiceBlocker({ ...customVoice, doc, format: 'ssml', chosenVoice: 'ryan', lenient: true })).toBeNull();
    // the fallback voice itself is still checked, and a known saved voice is still checked on its model
    expect(documentVoiceBlocker({ ...customVoice, doc, format: 'ssml', chosenVoice: 'aiden', lenient: true })).toBe('CV 0.6B has no speaker "aiden". Pick one of its speakers.');
    expect(documentVoiceBlocker({ ...customVoice, doc: '<speak><voice name="Anna">a</voice></speak>', format: 'ssml', chosenVoice: 'ryan', lenient: true })).toMatch(/^A turn's voice "Anna": Anna cannot speak on CV 0\.6B/);
  });

  it('checks a saved voice named in the document on the model it was made for', () => {
    const doc = '<speak><voice name="Anna">hello</voice></speak>';
    expect(documentVoiceBlocker({ ...customVoice, doc, format: 'ssml', chosenVoice: 'ryan' })).toMatch(/^A turn's voice "Anna": Anna cannot speak on CV 0.6B/);
    expect(documentVoiceBlocker({ ...customVoice, model: { kind: 'base', size: '0b6' }, modelName: 'Base 0.6B', doc, format: 'ssml', chosenVoice: 'ryan' })).toBeNull();
  });

  it("says the chosen voice's problem plainly for plain text on a Base model", () => {
    expect(documentVoiceBlocker({ ...customVoice, model: { kind: 'base', size: '1b7' }, modelName: 'Base 1.7B', doc: 'hello', format: 'text', chosenVoice: 'ryan' })).toMatch(/^Base 1.7B is a Base model: it speaks only cloned voices, and none fits it yet/);
  });
});
