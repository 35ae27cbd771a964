// Saved voices as people know them: a recorded id shows the voice's name (a deleted one says so,
// a built-in speaker shows as itself), and a search finds every voice whose name contains it.
import { describe, expect, it } from 'vitest';
import { voiceDisplayName, voicesMatching } from './voice-names';

const SAVED = [{ id: 'v-0123456789ab', name: 'Anna Reads' }];

describe('voice names', () => {
  it('shows a saved voice by name, a deleted one as deleted, a built-in speaker as itself', () => {
    expect(voiceDisplayName('v-0123456789ab', SAVED)).toBe('Anna Reads');
    expect(voiceDisplayName('v-ffffffffffff', SAVED)).toBe('v-ffffffffffff (deleted voice)');
    expect(voiceDisplayName('ryan', SAVED)).toBe('ryan');
  });

  it('finds the voices a search names, saved ones by id and name', () => {
    expect(voicesMatching(' ANNA ', [{ name: 'ryan' }], SAVED)).toEqual(['v-0123456789ab', 'Anna Reads']);
    expect(voicesMatching('ry', [{ name: 'ryan' }, { name: 'vivian' }], SAVED)).toEqual(['ryan']);
    expect(voicesMatching('', [{ name: 'ryan' }], SAVED)).toEqual([]);
  });
});
