// The CLI progress renderer and the progress throttle: what is drawn, when, and how often.
import { describe, expect, it } from 'vitest';
import type { FileProgress, PullProgress } from './model-types';
import { createProgressBarRenderer, formatProgressLine } from './progress-bar';
import { throttleProgress } from './pull-progress';

function event(change: Partial<PullProgress>, file: Partial<FileProgress> | null = null): PullProgress {
  return {
    phase: 'downloading',
    modelId: 'm',
    receivedBytes: 0,
    totalBytes: 2_000_000,
    numFilesDone: 0,
    numFiles: 2,
    file: file ? { path: 'model.safetensors', state: 'downloading', receivedBytes: 0, totalBytes: 1_000_000, resumedFromBytes: 0, ...file } : null,
    buildFraction: null,
    message: '',
    ...change,
  };
}

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 200, write: (s: string) => writes.push(s) } };
}

describe('createProgressBarRenderer', () => {
  it('draws one line in place on a TTY, at most once per throttle interval for byte updates', () => {
    let nowMs = 0;
    const { writes, stream } = fakeStream(true);
    const bar = createProgressBarRenderer({ stream, throttleMs: 100, nowMs: () => nowMs });
    bar.onProgress(event({ phase: 'downloading', message: 'downloading 2 files' }));
    for (let i = 1; i <= 10; i++) {
      nowMs = i * 20; // 10 updates over 200 ms
      bar.onProgress(event({ receivedBytes: i * 100_000 }, { receivedBytes: i * 100_000 }));
    }
    // First draw (phase change) at 0 ms, then byte updates at 100 and 200 ms only.
    expect(writes).toHaveLength(3);
    for (const w of writes) expect(w.startsWith('\r\x1b[2K')).toBe(true);
    // 1,000,000 of 2,000,000 bytes in 200 ms since the first byte update at 20 ms: (1e6 - 1e5) / 0.18 s = 5 MB/s.
    expect(writes[2]).toContain(' 50% [############............] 1.00 MB / 2.00 MB  5.00 MB/s  0/2 files  model.safetensors');
    bar.dispose();
    expect(writes.at(-1)).toBe('\n');
  });

  it('redraws at once when a file finishes, even inside the throttle interval', () => {
    const { writes, stream } = fakeStream(true);
    const bar = createProgressBarRenderer({ stream, throttleMs: 1000, nowMs: () => 5 });
    bar.onProgress(event({}, { receivedBytes: 10 }));
    bar.onProgress(event({ numFilesDone: 1 }, { state: 'done', receivedBytes: 1_000_000 }));
    expect(writes).toHaveLength(2);
    expect(writes[1]).toContain('1/2 files');
  });

  it('prints plain lines per phase and finished file when not on a TTY', () => {
    const { writes, stream } = fakeStream(false);
    const bar = createProgressBarRenderer({ stream });
    bar.onProgress(event({ phase: 'listing', message: 'listing Qwen/X@main' }));
    bar.onProgress(event({ message: 'downloading 2 files' }));
    bar.onProgress(event({}, { receivedBytes: 10 }));
    bar.onProgress(event({}, { state: 'done', receivedBytes: 1_000_000 }));
    bar.onProgress(event({}, { path: 'config.json', state: 'failed', totalBytes: 4908 }));
    expect(writes).toEqual(['listing Qwen/X@main\n', 'downloading 2 files\n', '  ok     model.safetensors (1.00 MB)\n', '  FAILED config.json (4.91 KB)\n']);
  });

  it('shows the build fraction while building', () => {
    expect(formatProgressLine(event({ phase: 'building', buildFraction: 0.25, message: 'graphs' }), 0)).toBe('building     25% [######..................] graphs');
  });
});

describe('throttleProgress', () => {
  it('passes state changes always and byte updates at most once per interval', () => {
    let nowMs = 0;
    const seen: PullProgress[] = [];
    const throttled = throttleProgress((p) => seen.push(p), 50, () => nowMs);
    throttled(event({ phase: 'listing' }));
    for (let i = 0; i < 20; i++) {
      nowMs = i * 10; // 0..190 ms → passes at 0, 50, 100, 150
      throttled(event({}, { receivedBytes: i }));
    }
    throttled(event({}, { state: 'done' }));
    expect(seen.map((p) => p.file?.receivedBytes ?? 'phase')).toEqual(['phase', 0, 5, 10, 15, 0]);
    expect(seen.at(-1)?.file?.state).toBe('done');
  });
});
