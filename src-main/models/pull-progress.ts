/**
 * Keeps the running totals of one pull (bytes and files, per file and overall) and turns each
 * change into a PullProgress event. Also a throttle for listeners that repaint (UI, IPC): state
 * changes always pass, byte-count updates at most once per interval. Pure apart from the clock.
 */
import type { FileProgress, FileState, PullPhase, PullProgress } from './model-types';

export class PullProgressTracker {
  private readonly files = new Map<string, FileProgress>();
  private phase: PullPhase = 'listing';

  constructor(
    private readonly modelId: string,
    private readonly listener: ((p: PullProgress) => void) | undefined,
  ) {}

  setPhase(phase: PullPhase, message: string, buildFraction: number | null = null): void {
    this.phase = phase;
    this.emit(null, message, buildFraction);
  }

  addFile(path: string, totalBytes: number, state: FileState, receivedBytes = 0): void {
    this.files.set(path, { path, state, receivedBytes, totalBytes, resumedFromBytes: 0 });
  }

  updateFile(path: string, change: Partial<Omit<FileProgress, 'path'>>, message = ''): void {
    const file = this.files.get(path);
    if (!file) return;
    Object.assign(file, change);
    this.emit(file, message, null);
  }

  snapshot(file: FileProgress | null = null, message = '', buildFraction: number | null = null): PullProgress {
    let receivedBytes = 0;
    let totalBytes = 0;
    let numFilesDone = 0;
    for (const f of this.files.values()) {
      receivedBytes += f.receivedBytes;
      totalBytes += f.totalBytes;
      if (f.state === 'done' || f.state === 'skipped') numFilesDone++;
    }
    return {
      phase: this.phase,
      modelId: this.modelId,
      receivedBytes,
      totalBytes,
      numFilesDone,
      numFiles: this.files.size,
      file: file ? { ...file } : null,
      buildFraction,
      message,
    };
  }

  private emit(file: FileProgress | null, message: string, buildFraction: number | null): void {
    this.listener?.(this.snapshot(file, message, buildFraction));
  }
}

/**
 * Wraps a listener so byte-only updates reach it at most once per `intervalMs`; phase changes,
 * and file state changes (queued, verifying, done, failed) always pass. `nowMs` is injectable for tests.
 */
export function throttleProgress(
  listener: (p: PullProgress) => void,
  intervalMs: number,
  nowMs: () => number = () => performance.now(),
): (p: PullProgress) => void {
  let lastMs = -Infinity;
  return (p) => {
    const now = nowMs();
    const isByteUpdate = p.file !== null && p.file.state === 'downloading';
    if (!isByteUpdate || now - lastMs >= intervalMs) {
      if (isByteUpdate) lastMs = now;
      listener(p);
    }
  };
}
