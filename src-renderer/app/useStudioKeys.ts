/**
 * Studio shortcuts, scoped to where they act: Ctrl/Cmd+Enter generates on the Timeline (refused,
 * saying why, while the SSML has problems) or speaks on the Speak screen, and does nothing elsewhere; Space plays
 * or pauses the timeline, Esc cancels running generations and Ctrl/Cmd+Z / Shift+Z (or Y) undo and
 * redo timeline edits (take choices in the Library too), and 1–9 go to that turn's block on the
 * Timeline (whose own keys act on it: turn-keys.ts), all only when no text field has focus.
 */
import { useEffect } from 'react';
import { useStudioStore } from '../store/store';
import { speak } from '../features/speak/speak-actions';
import { cancelAll, requestGenerate } from '../shared-state/generate-actions';
import { timelinePlayer } from '../features/timeline/timeline-player';
import { withChosenTakeSync } from '../shared-state/chosen-take-sync';
import { turnForDigit } from '../features/timeline/turn-keys';

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
        const s = useStudioStore.getState();
        const busy = s.jobs.some((j) => j.state === 'waiting' || j.state === 'running');
        if (s.area === 'timeline') {
          e.preventDefault();
          requestGenerate(); // refused, saying why, while the SSML has problems
        } else if (s.area === 'speak') {
          e.preventDefault();
          if (!busy) void speak();
        }
      } else if ((e.ctrlKey || e.metaKey) && (e.key.toLowerCase() === 'z' || e.key.toLowerCase() === 'y')) {
        // Undo/redo of timeline edits, on the Timeline only and never inside a text field (fields undo their own text).
        const s = useStudioStore.getState();
        if (s.area !== 'timeline' || isTyping(e.target)) return;
        e.preventDefault();
        void withChosenTakeSync(e.key.toLowerCase() === 'y' || e.shiftKey ? s.redo : s.undo); // a choice undone is undone in the Library too
      } else if (e.key === 'Escape') {
        if (isTyping(e.target)) return; // Esc in a field (the project name, a search box) is that field's business
        void cancelAll();
      } else if (/^[1-9]$/.test(e.key) && !isTyping(e.target)) {
        const s = useStudioStore.getState();
        const index = s.area === 'timeline' ? turnForDigit(e, s.turns.length) : null;
        const block = index === null ? null : document.querySelector<HTMLElement>(`[data-testid="turn-${s.turns[index].turnIndex}"]`);
        if (!block) return;
        e.preventDefault();
        // Focus lands on the block's first button (Play in place), where the turn's keys act.
        block.querySelector<HTMLElement>('button')?.focus();
        block.scrollIntoView?.({ block: 'nearest' });
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
