// Tests for the progress line and the TTY renderer.
import { describe, expect, it } from 'vitest';
import { createTtyProgressRenderer, formatProgress, measurementLabel, type BenchProgress } from './bench-progress';

const base: BenchProgress = { phase: 'window', pass: 1, numPasses: 2, variant: 'after', workload: 'plain', numClients: 8, measurementIndex: 3, numMeasurements: 8, windowLeftMs: 41_250, numCompleted: 17 };

describe('bench progress', () => {
  it('shows phase, what is measured, window time left and completions', () => {
    expect(formatProgress(base)).toBe('[pass 1/2 · 3/8] window · after · plain · 8 clients · window 41.3 s left · 17 completed');
  });

  it('says "1 client", not "1 clients", in the progress line and the live status label', () => {
    expect(formatProgress({ ...base, numClients: 1 })).toContain('· plain · 1 client ·');
    expect(measurementLabel({ ...base, numClients: 1 })).toBe('pass 1 · after · plain · 1 client');
    expect(measurementLabel(base)).toBe('pass 1 · after · plain · 8 clients');
  });

  it('redraws one line on a TTY and prints phase changes only elsewhere', () => {
    const tty: string[] = [];
    const render = createTtyProgressRenderer({ isTTY: true, columns: 200, write: (t) => tty.push(t) }, 0);
    render(base);
    render({ ...base, numCompleted: 18 });
    expect(tty).toHaveLength(2);
    expect(tty[1].startsWith('\r\x1b[2K')).toBe(true);
    const plain: string[] = [];
    const log = createTtyProgressRenderer({ isTTY: false, write: (t) => plain.push(t) }, 0);
    log(base);
    log({ ...base, numCompleted: 18 });
    log({ ...base, phase: 'drain' });
    expect(plain).toHaveLength(2);
    expect(plain[1]).toContain('drain');
  });
});
