/**
 * Typing as a user does, one key at a time, for renderer tests without user-event: each key appends
 * to what the field shows now (after React rendered the previous key), so a field that rewrites its
 * text while typing ("1, " shown back as "1") fails the way it fails for a user. Test-only.
 */
import { fireEvent } from '@testing-library/react';

export function typeKeys(input: HTMLInputElement | HTMLTextAreaElement, text: string): void {
  for (const key of text) fireEvent.change(input, { target: { value: input.value + key } });
}

/** Select-all and delete: the field emptied. */
export function clearField(input: HTMLInputElement | HTMLTextAreaElement): void {
  fireEvent.change(input, { target: { value: '' } });
}
