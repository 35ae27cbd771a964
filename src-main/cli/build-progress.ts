/**
 * A one-line progress bar for the model builder's { phase, done, total } events: redrawn in place
 * on a TTY (throttled), one line per phase elsewhere. Writes only to the stream it is given.
 */
import type { ProgressEvent } from '../model-builder/progress';

export interface BuildProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export function createBuildProgress(stream: BuildProgressStream, throttleMs = 100): { onProgress: (e: ProgressEvent) => void; dispose(): void } {
  let lastPhase = '';
  let lastDrawMs = -Infinity;
  let lineOpen = false;
  return {
    onProgress(e) {
      const phaseChanged = e.phase !== lastPhase;
      lastPhase = e.phase;
      if (!stream.isTTY) {
        if (phaseChanged) stream.write(`${e.phase}…\n`);
        return;
      }
      const now = performance.now();
      if (!phaseChanged && e.done < e.total && now - lastDrawMs < throttleMs) return;
      lastDrawMs = now;
      const fraction = e.total > 0 ? Math.min(1, e.done / e.total) : 0;
      const width = 24;
      const filled = Math.round(fraction * width);
      stream.write(`\r${e.phase.padEnd(12)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}%  ${e.done}/${e.total}\x1b[K`);
      lineOpen = true;
    },
    dispose() {
      if (lineOpen) stream.write('\n');
      lineOpen = false;
    },
  };
}
