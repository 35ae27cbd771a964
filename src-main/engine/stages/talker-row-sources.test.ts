/**
 * planRowSources against a slow reference: every wanted row is read from a holder that holds exactly
 * that key, at no larger capacity, or staged once per distinct key; at most the allowed holders are read.
 */
import { describe, expect, it } from 'vitest';
import { planRowSources, readsNoBucket, type KvHolder } from './talker-row-sources';

const holder = (key: string, capacity: number, rows: string[]): KvHolder => ({ key, capacity, rows });

/** What the plan's pick gives for each wanted row: the source key it reads, or 'fresh:<key>'. */
function resolve(want: readonly string[], holders: readonly KvHolder[], plan: ReturnType<typeof planRowSources>): string[] {
  const rows = plan.sources.flatMap((key) => holders.find((h) => h.key === key)!.rows);
  const fresh = plan.fresh.map((k) => `fresh:${want[k]}`);
  return plan.pick.map((p) => (p < rows.length ? rows[p] : fresh[p - rows.length]));
}

describe('planRowSources', () => {
  it('reads rows from the run\'s own bucket first, stages only the rows no holder has, once per key', () => {
    const self = holder('4:64', 64, ['1@10', '2@7', '3@9', '3@9']);
    const plan = planRowSources(['2@7', '3@9', '5@4', '5@4'], [self], 64)!;
    expect(plan.sources).toEqual(['4:64']);
    expect(plan.pick).toEqual([1, 2, 4, 4]);
    expect(plan.fresh).toEqual([2]);
  });

  it('gathers from a smaller-capacity bucket (a row that outgrew it), never from a larger one; with nothing on the device it stages each distinct row once', () => {
    const small = holder('4:64', 64, ['1@64', '2@30', '', '']);
    const large = holder('4:256', 256, ['3@100', '', '', '']);
    const plan = planRowSources(['1@64', '3@100'], [holder('4:128', 128, ['', '', '', '']), large, small], 128)!;
    expect(plan.sources).toEqual(['4:64']);
    expect(resolve(['1@64', '3@100'], [large, small], plan)).toEqual(['1@64', 'fresh:3@100']);
    expect(readsNoBucket(planRowSources(['7@3', '8@1'], [small, large], 256))).toBe(true);
    expect(readsNoBucket(planRowSources(['1@64'], [], 64))).toBe(true);
    // one stream in an 8-row bucket with nothing on the device: no bucket is read, so the whole bucket is staged
    // (padded copies too) by a plain copy, not a gather of one staged row
    const padded = planRowSources(new Array(8).fill('9@40'), [small], 64);
    expect([padded.sources, padded.fresh, padded.pick]).toEqual([[], [0], new Array(8).fill(0)]);
    expect(readsNoBucket(padded)).toBe(true);
    expect(readsNoBucket(planRowSources(['1@64', '9@40'], [small], 64))).toBe(false);
  });

  it('matches the reference on random states: every row resolves to its own key, within the source limit', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let trial = 0; trial < 500; trial++) {
      const keys = Array.from({ length: 10 }, (_, i) => `${i}@${rand(5)}`);
      const holders = Array.from({ length: 1 + rand(4) }, (_, h) => holder(`b${h}`, 64 * 2 ** rand(3), Array.from({ length: 1 + rand(6) }, () => (rand(3) === 0 ? '' : keys[rand(10)]))));
      const want = Array.from({ length: 1 + rand(8) }, () => keys[rand(10)]);
      const capacity = 64 * 2 ** rand(3);
      const max = 1 + rand(3);
      const plan = planRowSources(want, holders, capacity, max);
      const onDevice = want.filter((w) => holders.some((h) => h.capacity <= capacity && h.rows.includes(w)));
      expect(plan.sources.length === 0).toBe(onDevice.length === 0);
      expect(plan.sources.length).toBeLessThanOrEqual(max);
      for (const key of plan.sources) expect(holders.find((h) => h.key === key)!.capacity).toBeLessThanOrEqual(capacity);
      expect(resolve(want, holders, plan).map((r) => r.replace('fresh:', ''))).toEqual(want);
      // a key is staged at most once, and only when no chosen source holds it
      const freshKeys = plan.fresh.map((k) => want[k]);
      expect(new Set(freshKeys).size).toBe(freshKeys.length);
      for (const key of freshKeys) for (const s of plan.sources) expect(holders.find((h) => h.key === s)!.rows).not.toContain(key);
    }
  });
});
