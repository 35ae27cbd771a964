/**
 * The one name of a take, wherever it is shown (Speak's history, a Timeline turn, a Library
 * clip's takes): "Take N", N counted from 1 in the order the takes were made. A turn's own audio
 * from the full generation is Take 1 and its first regeneration Take 2, on the Timeline and in the
 * Library alike. Pure; no store, no DOM.
 */

export function takeName(takeNumber: number): string {
  return `Take ${takeNumber}`;
}

/** The name of the take at `index` (0-based) of a list that starts with the first take. */
export function takeNameAt(index: number): string {
  return takeName(index + 1);
}
