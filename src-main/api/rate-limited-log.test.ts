import { describe, expect, it } from 'vitest';
import { createRateLimitedLog } from './rate-limited-log';

describe('createRateLimitedLog', () => {
  it('writes at most the window’s lines, then names how many were held back in the next line', () => {
    const lines: string[] = [];
    let nowMs = 0;
    const log = createRateLimitedLog((m) => lines.push(m), { maxLinesPerWindow: 3, windowMs: 1_000, nowMs: () => nowMs });
    for (let i = 0; i < 20_000; i++) log(`bad call ${i}`);
    expect(lines).toEqual(['bad call 0', 'bad call 1', 'bad call 2']);
    nowMs = 1_000; // the next window
    log('later');
    // 20,000 calls − 3 written = 19,997 held back
    expect(lines.at(-1)).toBe('later (19997 similar line(s) held back before this one)');
    log('again');
    expect(lines.at(-1)).toBe('again');
  });
});
