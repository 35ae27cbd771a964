// The save state names what holds the current revision: Save reads "saved" even when an autosave of
// the same revision lands after it; only a recovery copy reads "autosaved".
import { describe, expect, it } from 'vitest';
import { saveStateText } from './save-state';

const at = (ms: number) => `t${ms}`;

describe('saveStateText', () => {
  it('confirms a Save as saved, even after an autosave of the same revision', () => {
    expect(saveStateText({ projectRevision: 3, savedRevision: 3, fileRevision: 3, lastSavedAtMs: 100, lastAutosavedAtMs: 150 }, at)).toBe('saved t100');
    expect(saveStateText({ projectRevision: 3, savedRevision: 3, fileRevision: 3, lastSavedAtMs: 100, lastAutosavedAtMs: null }, at)).toBe('saved t100');
  });

  it('says autosaved when only the recovery copy holds the revision, and unsaved before either', () => {
    expect(saveStateText({ projectRevision: 4, savedRevision: 4, fileRevision: 3, lastSavedAtMs: 100, lastAutosavedAtMs: 200 }, at)).toBe('autosaved t200');
    expect(saveStateText({ projectRevision: 5, savedRevision: 4, fileRevision: 3, lastSavedAtMs: 100, lastAutosavedAtMs: 200 }, at)).toBe('unsaved changes');
    expect(saveStateText({ projectRevision: 0, savedRevision: 0, fileRevision: 0, lastSavedAtMs: null, lastAutosavedAtMs: null }, at)).toBe('not saved yet');
  });
});
