// The benchmark read at a glance: run names carry config and time, phase bands follow the
// samples, and axis ticks are even steps of one unit.
import { describe, expect, it } from 'vitest';
import { benchRunName, runConfigLabel } from './run-name';
import { phaseBands } from './phase-bands';
import { evenTicks, formatTick } from '../../components/even-ticks';
import type { BenchRunInput } from '../../../src-shared/contract/bench';

const INPUT: BenchRunInput = { variants: [{ name: 'before', target: 'inproc' }], workloads: ['plain'], clientCounts: [1], windowMs: 5_000, numPasses: 1 };

describe('benchRunName', () => {
  it('names a run by its config and its local start time', () => {
    const startedAtMs = new Date(2026, 11, 7, 3, 40, 12).getTime();
    expect(benchRunName({ input: INPUT, startedAtMs }, [])).toBe('before · plain · 1 client · 5 s × 1 · Dec 7 03:40');
  });

  it('lists both variants, every workload and client count, passes and the voice by its display name', () => {
    const input: BenchRunInput = { variants: [{ name: 'a', target: 'inproc' }, { name: 'b', target: 'http', url: 'http://x' }], workloads: ['plain', 'processed'], clientCounts: [1, 2, 4], windowMs: 12_500, numPasses: 3, voice: 'uncle_fu' };
    expect(runConfigLabel(input, [])).toBe('a vs b (HTTP) · plain + processed · 1, 2, 4 clients · 12.5 s × 3 · Uncle Fu');
  });

  it('names a saved voice by its name, not its id', () => {
    expect(runConfigLabel({ ...INPUT, voice: 'v-0123456789ab' }, [{ id: 'v-0123456789ab', name: 'Anna Reads' }])).toMatch(/ · Anna Reads$/);
  });

  it('says clients for one count above one', () => {
    expect(runConfigLabel({ ...INPUT, clientCounts: [8] }, [])).toContain('8 clients');
  });
});

describe('phaseBands', () => {
  const at = (timeS: number, phase: 'warmup' | 'golden' | 'fill' | 'window' | 'drain' | 'done', label = 'pass 1') => ({ timeS, phase, label });

  it('merges consecutive samples of one phase and makes bands touch', () => {
    const bands = phaseBands([at(0, 'warmup'), at(0.25, 'warmup'), at(0.5, 'fill'), at(0.75, 'window'), at(1, 'window'), at(1.25, 'window'), at(1.5, 'drain'), at(1.75, 'drain'), at(2, 'done')]);
    expect(bands.map((b) => [b.phase, b.startS, b.endS])).toEqual([
      ['warmup', 0, 0.5],
      ['fill', 0.5, 0.75],
      ['window', 0.75, 1.5],
      ['drain', 1.5, 2],
    ]);
  });

  it('starts a new band when the measurement changes, even in the same phase', () => {
    const bands = phaseBands([at(0, 'window', 'pass 1'), at(1, 'window', 'pass 1'), at(2, 'window', 'pass 2'), at(3, 'window', 'pass 2')]);
    expect(bands.map((b) => [b.label, b.startS, b.endS])).toEqual([
      ['pass 1', 0, 2],
      ['pass 2', 2, 3],
    ]);
  });

  it('draws nothing for a single sample or for done', () => {
    expect(phaseBands([at(0, 'window')])).toEqual([]);
    expect(phaseBands([at(0, 'done'), at(1, 'done')])).toEqual([]);
  });
});

describe('evenTicks', () => {
  it('steps 0.1 for a req/s that tops at 0.37', () => {
    const t = evenTicks(0, 0.37);
    expect(t.ticks).toEqual([0, 0.1, 0.2, 0.3, 0.4]);
    expect(t.domain).toEqual([0, 0.4]);
  });

  it('steps 2.5 for 9.1 and 20 for 73', () => {
    expect(evenTicks(0, 9.1).ticks).toEqual([0, 2.5, 5, 7.5, 10]);
    expect(evenTicks(0, 73).ticks).toEqual([0, 20, 40, 60, 80]);
  });

  it('spaces every tick by the same step and keeps at most maxTicks', () => {
    for (const max of [0.013, 1, 3.3, 47, 512, 12_345]) {
      const { ticks, step } = evenTicks(0, max, 6);
      expect(ticks.length).toBeLessThanOrEqual(6);
      expect(ticks[ticks.length - 1]).toBeGreaterThanOrEqual(max);
      for (let i = 1; i < ticks.length; i++) expect(ticks[i] - ticks[i - 1]).toBeCloseTo(step, 9);
    }
  });

  it('gives 0..1 when there is no data', () => {
    expect(evenTicks(Number.NaN, Number.NaN).ticks).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(evenTicks(0, 0).domain).toEqual([0, 1]);
  });

  it('formats a tick with the decimals its step needs', () => {
    expect(formatTick(0.5, 0.25)).toBe('0.50');
    expect(formatTick(0.25, 0.25)).toBe('0.25');
    expect(formatTick(40, 20)).toBe('40');
    expect(formatTick(0.3, 0.1)).toBe('0.3');
  });
});
