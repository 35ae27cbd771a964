/**
 * The ramp's knee: the first client count after which throughput stops growing, and notes that name
 * counts in words a reader expects ("1 client", "8 clients").
 */
import { describe, expect, it } from 'vitest';
import { findRampKnee } from './ramp-knee';

const step = (numClients: number, reqPerS: number, latencyMedianMs: number) => ({ numClients, reqPerS, latencyMedianMs });

describe('ramp knee', () => {
  it('finds where throughput stops growing and says "1 client" in the singular', () => {
    const flat = findRampKnee([step(1, 2.0, 500), step(2, 2.05, 900), step(4, 2.02, 1800)], 0.1);
    expect(flat.knee?.numClients).toBe(1);
    expect(flat.note).toMatch(/^throughput stops growing at 1 client \(2\.000 req\/s/);
    expect(flat.note).toMatch(/at 4 clients$/);
  });

  it('says the ramp must go on while throughput still grows', () => {
    const growing = findRampKnee([step(1, 1, 500), step(2, 2, 500), step(4, 4, 500)], 0.1);
    expect(growing.knee).toBeNull();
    expect(growing.note).toBe('throughput still grows at 4 clients; extend the ramp to find the knee');
  });
});
