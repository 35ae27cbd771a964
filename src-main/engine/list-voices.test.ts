// listVoices joins the manifest's speakers with resources/voices/voices.json.
import { describe, expect, it } from 'vitest';
import { listVoices, readVoiceDescriptors } from './list-voices';

describe('listVoices', () => {
  it('describes all nine CustomVoice speakers in the data file', () => {
    expect(Object.keys(readVoiceDescriptors()).sort()).toEqual(
      ['aiden', 'dylan', 'eric', 'ono_anna', 'ryan', 'serena', 'sohee', 'uncle_fu', 'vivian'],
    );
  });

  it('returns one entry per manifest speaker with its dialect', () => {
    const voices = listVoices({ speakers: { dylan: { codecId: 2878, dialect: 'beijing_dialect' }, ryan: { codecId: 3061, dialect: null } } });
    expect(voices).toEqual([
      { name: 'dylan', description: expect.stringMatching(/Beijing/), nativeLanguage: 'chinese', dialect: 'beijing_dialect' },
      { name: 'ryan', description: expect.any(String), nativeLanguage: 'english', dialect: null },
    ]);
  });

  it('still lists a speaker the data file does not know', () => {
    const [voice] = listVoices({ speakers: { zed: { codecId: 3000, dialect: null } } });
    expect(voice).toEqual({ name: 'zed', description: "Speaker 'zed' of this checkpoint", nativeLanguage: 'unknown', dialect: null });
  });
});
