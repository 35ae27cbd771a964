/**
 * A value the renderer keeps in localStorage as JSON: read back through its parser, and removed when it
 * is not JSON or fails the parser (another version, a damaged write), so a bad entry is dropped once.
 */

/** The stored value under `key`, or null when there is none, storage cannot be read, or it fails `parse` (then it is removed). */
export function readStoredJson<T>(storage: Storage, key: string, parse: (value: unknown) => T | null): T | null {
  let text: string | null;
  try {
    text = storage.getItem(key);
  } catch {
    return null;
  }
  if (text === null) return null;
  try {
    const parsed = parse(JSON.parse(text));
    if (parsed) return parsed;
  } catch {
    // not JSON: dropped below
  }
  storage.removeItem(key);
  return null;
}
