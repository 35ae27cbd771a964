/**
 * Studio-wide shortcuts: Ctrl/Cmd+Enter generates, Space plays or pauses the timeline (unless a
 * text field has focus), Esc cancels running generations.
 */
import { useEffect } from 'react';
import { cancelAll, generate } from './generate-actions';
import { timelinePlayer } from './timeline-player';

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.closest !== 'function') return false;
  return !!el.closest('input, textarea, select, [contenteditable="true"], .cm-editor');
}

export function useStudioKeys(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        if ((e.target as HTMLElement | null)?.closest?.('.cm-editor')) return; // the editor's own keymap handles it
        e.preventDefault();
        void generate();
      } else if (e.key === 'Escape') {
        void cancelAll();
      } else if (e.key === ' ' && !isTyping(e.target) && !(e.target as HTMLElement | null)?.closest?.('button')) {
        if (timelinePlayer.current) {
          e.preventDefault();
          timelinePlayer.current.playPause();
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
