/**
 * A request's deadlineMs is checked where requests come in (api/schemas.ts): issue 43 sent
 * `deadlineMs: 1e-300`, which passed `positive()` and came back as "a deadline of -3 ms".
 */
import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../src-shared/ipc-contract';
import { Dispatcher } from './dispatcher';
import { MAX_DEADLINE_MS, MIN_DEADLINE_MS, synthesisRequestSchema } from './schemas';
import type { Handlers } from './dispatcher';

const request = (deadlineMs: number) => ({ requestId: 'r1', input: 'hi', inputFormat: 'text', voice: 'ryan', language: 'english', seed: 1, deadlineMs });

describe('deadlineMs', () => {
  it('refuses values under 1 ms, over a day, or not finite, naming the field and the range', () => {
    for (const bad of [1e-300, 5e-324, 0.5, 0, -3, MAX_DEADLINE_MS + 1, Infinity, NaN]) {
      const parsed = synthesisRequestSchema.safeParse(request(bad));
      expect(parsed.success, String(bad)).toBe(false);
      if (!parsed.success) expect(parsed.error.issues[0].path).toEqual(['deadlineMs']);
    }
  });

  it('takes the ends of the range and anything between', () => {
    for (const good of [MIN_DEADLINE_MS, 250.5, 30_000, MAX_DEADLINE_MS]) expect(synthesisRequestSchema.safeParse(request(good)).success, String(good)).toBe(true);
  });

  it('answers 1e-300 over the contract as invalid-argument before the service runs', async () => {
    let numCalls = 0;
    const handlers = { [CHANNELS.synthesize]: async () => (numCalls++, {}) } as unknown as Handlers;
    const reply = await new Dispatcher(handlers, { warn: () => {} }).dispatch(CHANNELS.synthesize, request(1e-300), { callerId: 'c', role: 'client', emit: () => {} });
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid-argument', message: expect.stringContaining('deadlineMs must be at least 1 ms') } });
    expect(numCalls).toBe(0);
  });
});
