/**
 * Whether the page is drawn light or dark right now: the Settings choice (data-theme on <html>,
 * theme.ts) when it forces one, else the system's prefers-color-scheme; follows changes to either.
 * For parts that pick colours in code (the SSML editor's theme) rather than from app.css.
 */
import { useSyncExternalStore } from 'react';
import type { ColourScheme } from './ssml-editor-theme';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function systemQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
}

export function currentColourScheme(): ColourScheme {
  const forced = typeof document !== 'undefined' ? document.documentElement.dataset.theme : undefined;
  if (forced === 'light' || forced === 'dark') return forced;
  return systemQuery()?.matches ? 'dark' : 'light';
}

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  const query = systemQuery();
  query?.addEventListener('change', onChange);
  return () => {
    observer.disconnect();
    query?.removeEventListener('change', onChange);
  };
}

export function useColourScheme(): ColourScheme {
  return useSyncExternalStore(subscribe, currentColourScheme, () => 'light');
}
