/**
 * Renders pull progress for the CLI. On a TTY: one line redrawn in place (phase, percent, bar,
 * bytes, speed, files), at most every `throttleMs`; phase changes and finished files redraw at
 * once. Elsewhere (pipes, CI logs): one plain line per phase change and per finished file.
 * Writes only to the stream it is given.
 */
import { formatBytes } from './disk-space';
import type { PullProgress } from './model-types';

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressBarOptions {
  stream: ProgressStream;
  throttleMs?: number;
  nowMs?: () => number;
}

export interface ProgressBarRenderer {
  onProgress: (p: PullProgress) => void;
  /** Ends the in-place line (prints a newline) so later output starts clean. */
  dispose: () => void;
}

const BAR_WIDTH = 24;

export function createProgressBarRenderer(options: ProgressBarOptions): ProgressBarRenderer {
  const { stream } = options;
  const throttleMs = options.throttleMs ?? 100;
  const nowMs = options.nowMs ?? (() => performance.now());
  let lastDrawMs = -Infinity;
  let lastPhase = '';
  let lineOpen = false;
  const speed = { startMs: 0, startBytes: -1 };
  const finishedFiles = new Set<string>();

  const onProgress = (p: PullProgress) => {
    const now = nowMs();
    if (p.phase === 'downloading' && p.file?.state === 'downloading' && speed.startBytes < 0) {
      speed.startMs = now;
      speed.startBytes = p.receivedBytes;
    }
    const phaseChanged = p.phase !== lastPhase;
    lastPhase = p.phase;
    const fileFinished = p.file !== null && (p.file.state === 'done' || p.file.state === 'failed') && !finishedFiles.has(p.file.path);
    if (fileFinished && p.file) finishedFiles.add(p.file.path);

    if (!stream.isTTY) {
      if (phaseChanged) stream.write(`${p.message || p.phase}\n`);
      else if (fileFinished && p.file) stream.write(`  ${p.file.state === 'done' ? 'ok    ' : 'FAILED'} ${p.file.path} (${formatBytes(p.file.totalBytes)})\n`);
      return;
    }
    if (!phaseChanged && !fileFinished && p.phase !== 'done' && now - lastDrawMs < throttleMs) return;
    lastDrawMs = now;
    const bytesPerSecond = speed.startBytes >= 0 && now > speed.startMs ? ((p.receivedBytes - speed.startBytes) * 1000) / (now - speed.startMs) : 0;
    const line = formatProgressLine(p, bytesPerSecond);
    const width = Math.max(20, (stream.columns ?? 100) - 1);
    stream.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    lineOpen = true;
    if (p.phase === 'done') {
      stream.write('\n');
      lineOpen = false;
    }
  };

  return {
    onProgress,
    dispose: () => {
      if (lineOpen) stream.write('\n');
      lineOpen = false;
    },
  };
}

/** One status line, e.g. "downloading  42% [##########..............] 1.02 GB / 2.43 GB  35.1 MB/s  3/9 files  model.safetensors". */
export function formatProgressLine(p: PullProgress, bytesPerSecond: number): string {
  if (p.phase === 'building') {
    const fraction = p.buildFraction ?? 0;
    return `building    ${percent(fraction)} ${bar(fraction)} ${p.message}`;
  }
  if (p.phase === 'done' || p.phase === 'listing') return p.message;
  const fraction = p.totalBytes > 0 ? p.receivedBytes / p.totalBytes : 0;
  const rate = bytesPerSecond > 0 ? `  ${formatBytes(Math.round(bytesPerSecond))}/s` : '';
  const file = p.file ? `  ${p.file.path}` : '';
  return `${p.phase.padEnd(11)} ${percent(fraction)} ${bar(fraction)} ${formatBytes(p.receivedBytes)} / ${formatBytes(p.totalBytes)}${rate}  ${p.numFilesDone}/${p.numFiles} files${file}`;
}

function percent(fraction: number): string {
  return `${Math.floor(fraction * 100)}%`.padStart(4);
}

function bar(fraction: number): string {
  const numFilled = Math.round(Math.min(1, Math.max(0, fraction)) * BAR_WIDTH);
  return `[${'#'.repeat(numFilled)}${'.'.repeat(BAR_WIDTH - numFilled)}]`;
}
