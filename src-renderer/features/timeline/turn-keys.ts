/**
 * Keyboard shortcuts per turn on the Timeline (outside text fields): a digit 1–9 goes to that
 * turn's block; inside a block P plays the turn in place, N makes a new take, R reverts, and
 * [ / ] choose the previous / next take. Pure: which action a key means, and which take a step reaches.
 */
import type { ProjectTurn } from '../../../src-shared/contract/projects';

export type TurnKeyAction = { kind: 'play' } | { kind: 'new-take' } | { kind: 'revert' } | { kind: 'choose'; step: -1 | 1 };

/** What the keys do, for the Timeline's hint and aria-keyshortcuts. */
export const TURN_KEYS_HINT = 'Keys: 1–9 go to a turn; there P plays it in place, N makes a new take, R reverts, [ and ] choose the previous or next take.';

type KeyLike = { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean };

export function turnKeyAction(e: KeyLike): TurnKeyAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  switch (e.key) {
    case 'p':
    case 'P':
      return { kind: 'play' };
    case 'n':
    case 'N':
      return { kind: 'new-take' };
    case 'r':
    case 'R':
      return { kind: 'revert' };
    case '[':
      return { kind: 'choose', step: -1 };
    case ']':
      return { kind: 'choose', step: 1 };
    default:
      return null;
  }
}

/** The turn (0-based) a digit key goes to, or null: '1' → 0 … '9' → 8, when the document has that turn. */
export function turnForDigit(e: KeyLike, numTurns: number): number | null {
  if (e.ctrlKey || e.metaKey || e.altKey || !/^[1-9]$/.test(e.key)) return null;
  const index = Number(e.key) - 1;
  return index < numTurns ? index : null;
}

/** The take `step` away from the chosen one, in the turn's take order; null at either end. */
export function steppedTakeId(turn: ProjectTurn, step: -1 | 1): string | null {
  const at = turn.takes.findIndex((t) => t.takeId === turn.chosenTakeId);
  const next = turn.takes[at + step];
  return at >= 0 && next ? next.takeId : null;
}
