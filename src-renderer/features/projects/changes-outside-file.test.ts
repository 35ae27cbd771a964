// New and Re-open ask before dropping changes the project file does not hold, autosaved or not: an
// autosave is a recovery copy that the next project's autosave replaces (an e2e run caught New going
// ahead silently once the 800 ms autosave had landed).
import { beforeEach, describe, expect, it } from 'vitest';
import { resetStore, useStudioStore } from '../../store/store';
import { hasChangesOutsideItsFile, hasUnsavedChanges } from '../../shared-state/project-document';

const edit = (text: string) => {
  useStudioStore.getState().setEditorText(text);
  useStudioStore.getState().markProjectChanged();
};

describe('changes outside the project file', () => {
  beforeEach(() => resetStore());

  it('counts an autosaved change as still outside the file, and a save as inside', () => {
    edit('<speak>Changed and not saved</speak>');
    const s = useStudioStore.getState();
    s.setSaved('autosave', 1_000, s.projectRevision);
    expect(hasUnsavedChanges()).toBe(false); // the bar says "autosaved"
    expect(hasChangesOutsideItsFile()).toBe(true); // but New must still ask
    s.setSaved('save', 2_000, useStudioStore.getState().projectRevision);
    expect(hasChangesOutsideItsFile()).toBe(false);
    edit('<speak>Changed again</speak>');
    expect(hasChangesOutsideItsFile()).toBe(true);
  });

  it('treats a project just opened from its file as held by it, and an untouched new project as nothing to lose', () => {
    expect(hasChangesOutsideItsFile()).toBe(false);
    edit('<speak>Opened words</speak>');
    useStudioStore.getState().markInFile(useStudioStore.getState().projectRevision);
    expect(hasChangesOutsideItsFile()).toBe(false);
  });
});
