// Per-turn keys: P / N / R / [ / ] mean play, new take, revert and the neighbouring takes; digits
// go to a turn the document has; modified keys are left to the browser and other shortcuts.
import { describe, expect, it } from 'vitest';
import type { ProjectTurn } from '../../../src-shared/contract/projects';
import { steppedTakeId, turnForDigit, turnKeyAction } from './turn-keys';

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe('turnKeyAction', () => {
  it('maps P, N, R, [ and ] either case', () => {
    expect(['p', 'N', 'r', '[', ']'].map((k) => turnKeyAction(key(k)))).toEqual([{ kind: 'play' }, { kind: 'new-take' }, { kind: 'revert' }, { kind: 'choose', step: -1 }, { kind: 'choose', step: 1 }]);
  });
  it('leaves Ctrl/Cmd/Alt combinations and other keys alone', () => {
    expect(turnKeyAction(key('n', { ctrlKey: true }))).toBeNull();
    expect(turnKeyAction(key('r', { metaKey: true }))).toBeNull();
    expect(turnKeyAction(key('p', { altKey: true }))).toBeNull();
    expect(turnKeyAction(key('x'))).toBeNull();
  });
});

describe('turnForDigit', () => {
  it('goes to turn N for digit N when the document has it', () => {
    expect(turnForDigit(key('2'), 3)).toBe(1);
    expect(turnForDigit(key('4'), 3)).toBeNull();
    expect(turnForDigit(key('0'), 3)).toBeNull();
    expect(turnForDigit(key('1', { ctrlKey: true }), 3)).toBeNull();
  });
});

describe('steppedTakeId', () => {
  const turn: ProjectTurn = {
    turnIndex: 0,
    takes: ['a', 'b', 'c'].map((takeId) => ({ takeId, clipId: takeId, seed: 1, startSample: 0, endSample: 1, createdAtMs: 0 })),
    chosenTakeId: 'b',
    previousTakeId: null,
  };
  it('reaches the neighbouring take and stops at the ends', () => {
    expect(steppedTakeId(turn, -1)).toBe('a');
    expect(steppedTakeId(turn, 1)).toBe('c');
    expect(steppedTakeId({ ...turn, chosenTakeId: 'c' }, 1)).toBeNull();
    expect(steppedTakeId({ ...turn, chosenTakeId: 'a' }, -1)).toBeNull();
  });
});
