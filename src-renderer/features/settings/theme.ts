/**
 * The appearance setting: follow the OS, or always light / dark. Kept in localStorage (its own
 * versioned key, checked on read) and applied as data-theme on <html>, which app.css reads.
 */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_STORAGE_KEY = 'qwen3-tts-studio.theme.v1';

export function readTheme(storage: Storage): Theme {
  try {
    const stored = storage.getItem(THEME_STORAGE_KEY);
    return (THEMES as readonly string[]).includes(stored ?? '') ? (stored as Theme) : 'system';
  } catch {
    return 'system';
  }
}

/** Applies the theme to the document and remembers it. */
export function applyTheme(theme: Theme, storage: Storage, root: HTMLElement = document.documentElement): void {
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
  try {
    storage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // storage disabled: the theme holds for this page only
  }
}
