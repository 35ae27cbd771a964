// Voices as people know them: a recorded id shows the saved voice's name (a deleted one says so),
// a model speaker its readable name ('uncle_fu' → 'Uncle Fu'), and a search finds every voice whose name contains it.
import { describe, expect, it } from 'vitest';
import { voiceDisplayName, voicesMatching } from './voice-names';

const SAVED = [{ id: 'v-0123456789ab', name: 'Anna Reads' }];

describe('voice names', () => {
  it('shows a saved voice by name, a deleted one as deleted, a model speaker by its readable name', () => {
    expect(voiceDisplayName('v-0123456789ab', SAVED)).toBe('Anna Reads');
    expect(voiceDisplayName('v-ffffffffffff', SAVED)).toBe('v-ffffffffffff (deleted voice)');
    expect(voiceDisplayName('ryan', SAVED)).toBe('Ryan');
    expect(voiceDisplayName('uncle_fu', SAVED)).toBe('Uncle Fu');
    expect(voiceDisplayName('ono_anna', [])).toBe('Ono Anna');
  });

  it('keeps a saved voice named in SSML by its name as the user wrote it', () => {
    const saved = [{ id: 'v-00000000000a', name: 'my_voice' }];
    expect(voiceDisplayName('my_voice', saved)).toBe('my_voice');
    expect(voiceDisplayName('v-00000000000a', saved)).toBe('my_voice');
  });

  it('finds the voices a search names, saved ones by id and name', () => {
    expect(voicesMatching(' ANNA ', [{ name: 'ryan' }], SAVED)).toEqual(['v-0123456789ab', 'Anna Reads']);
    expect(voicesMatching('ry', [{ name: 'ryan' }, { name: 'vivian' }], SAVED)).toEqual(['ryan']);
    expect(voicesMatching('', [{ name: 'ryan' }], SAVED)).toEqual([]);
  });
});
