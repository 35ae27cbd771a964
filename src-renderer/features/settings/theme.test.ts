// @vitest-environment jsdom
// The theme setting: stored under its own key, unknown values read as 'system', and applied as
// data-theme on <html> ('system' removes it so prefers-color-scheme decides).
import { beforeEach, describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY, applyTheme, readTheme } from './theme';

describe('theme', () => {
  beforeEach(() => {
    localStorage.clear();
    delete document.documentElement.dataset.theme;
  });

  it('applies and remembers light and dark, and system removes the override', () => {
    applyTheme('dark', localStorage);
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(readTheme(localStorage)).toBe('dark');
    applyTheme('light', localStorage);
    expect(document.documentElement.dataset.theme).toBe('light');
    applyTheme('system', localStorage);
    expect(document.documentElement.dataset.theme).toBeUndefined();
    expect(readTheme(localStorage)).toBe('system');
  });

  it('reads a missing or unknown stored value as system', () => {
    expect(readTheme(localStorage)).toBe('system');
    localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    expect(readTheme(localStorage)).toBe('system');
  });
});
