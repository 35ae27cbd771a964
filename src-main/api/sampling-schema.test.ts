/**
 * Sampling params out of range are refused where requests come in, naming the field: the shared
 * schema (HTTP API, IPC/WebSocket contract, CLI flags) and the engine's own check take the same
 * ranges (src-shared/sampling-limits.ts). Issue 36: temperature 1e-300 passed, overflowed the
 * sampler and took every request of its batch down with a 500.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SAMPLING_PARAM_LIMITS, type NumericSamplingParam } from '../../src-shared/sampling-limits';
import { CHANNELS } from '../../src-shared/ipc-contract';
import { createStudioStack, type StudioStack } from '../app/studio-stack';
import { FakeHostProcess } from '../engine-client/testing/fake-host-process';
import { startHeadlessServer, type HeadlessServer } from '../headless/headless-server';
import { resolveSamplingParams } from '../engine/sampling/sampling-params';
import { samplingParamsFromFlags } from '../cli/sampling-flags';
import { samplingParamsSchema } from './schemas';

/** Values a probe sent that passed before: tiny, huge, and just past each end of each range. */
const BAD: Record<NumericSamplingParam, number[]> = {
  temperature: [1e-300, 5e-324, 0.001, 0, -1, 10.5, 1e300],
  subtalkerTemperature: [1e-300, 0.009, 11],
  topK: [-1, 4097, 1e300, 2.5],
  subtalkerTopK: [-1, 1e9],
  topP: [0, -1e-300, 1 + 1e-9, 1e300],
  subtalkerTopP: [0, 2],
  repetitionPenalty: [1e-300, 0.5, 10.01, 1e300],
  maxNewTokens: [0, 8193, 1.5, 1e300],
};

const GOOD: Partial<Record<NumericSamplingParam, number[]>> = {
  temperature: [0.01, 0.9, 10],
  topK: [0, 50, 4096],
  topP: [1e-6, 0.8, 1],
  repetitionPenalty: [1, 1.05, 10],
  maxNewTokens: [1, 8192],
};

const GENERATION_DEFAULTS = {
  doSample: true, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05,
  subtalkerDoSample: true, subtalkerTemperature: 0.9, subtalkerTopK: 50, subtalkerTopP: 1, maxNewTokens: 8192, minNewTokens: 2,
};

describe('sampling param ranges', () => {
  it('refuses tiny, huge and out-of-range values in the shared schema and in the engine, naming the field and the range', () => {
    for (const [key, values] of Object.entries(BAD) as [NumericSamplingParam, number[]][]) {
      for (const value of values) {
        const parsed = samplingParamsSchema.safeParse({ [key]: value });
        expect(parsed.success, `${key} = ${value}`).toBe(false);
        const issue = parsed.error!.issues[0];
        expect(issue.path).toEqual([key]);
        expect(issue.message).toContain(`${SAMPLING_PARAM_LIMITS[key].max}`);
        expect(() => resolveSamplingParams(GENERATION_DEFAULTS, { [key]: value }), `${key} = ${value}`).toThrow(new RegExp(`params\\.${key} is .*; it must be`));
      }
    }
  });

  it('accepts the ends of each range', () => {
    for (const [key, values] of Object.entries(GOOD) as [NumericSamplingParam, number[]][]) {
      for (const value of values) {
        expect(samplingParamsSchema.safeParse({ [key]: value }).success, `${key} = ${value}`).toBe(true);
        expect(resolveSamplingParams(GENERATION_DEFAULTS, { [key]: value })[key]).toBe(value);
      }
    }
  });

  it('names the flag and its range for the CLI', () => {
    expect(() => samplingParamsFromFlags({ temperature: '1e-300' })).toThrow(/--temperature: must be a number from 0\.01 to 10/);
  });
});

describe('sampling params over the HTTP API and the contract', () => {
  let stack: StudioStack | null = null;
  let server: HeadlessServer | null = null;

  afterEach(async () => {
    await server?.close();
    await stack?.dispose();
    [server, stack] = [null, null];
  });

  async function start(): Promise<{ url: string; stack: StudioStack }> {
    stack = createStudioStack({
      hostKind: 'headless',
      version: 'test',
      userDataDir: mkdtempSync(path.join(os.tmpdir(), 'studio-sampling-')),
      spawnHost: () => new FakeHostProcess(1, { status: () => ({ state: 'ready', numWaiting: 0 }) }),
      log: () => {},
    });
    await stack.host.start();
    server = await startHeadlessServer({ stack, port: 0, hostname: '127.0.0.1', rendererDir: null, log: () => {} });
    return { url: server.url, stack };
  }

  it('answers 400 naming params.temperature on both synthesis routes, and refuses it over the contract', async () => {
    const { url, stack: rt } = await start();
    const headers = { 'content-type': 'application/json' };
    const bodies: [string, Record<string, unknown>][] = [
      ['/api/v1/tts', { text: 'hi', voice: 'ryan', params: { temperature: 1e-300 } }],
      ['/v1/audio/speech', { input: 'hi', voice: 'ryan', params: { temperature: 1e-300 } }],
    ];
    for (const [route, body] of bodies) {
      const res = await fetch(`${url}${route}`, { method: 'POST', body: JSON.stringify(body), headers });
      expect(res.status, route).toBe(400);
      const { error } = (await res.json()) as { error: { param: string; code: string; message: string } };
      expect(error).toMatchObject({ param: 'params.temperature', code: 'invalid-argument' });
      expect(error.message).toMatch(/params\.temperature: must be a number from 0\.01 to 10/);
    }
    const reply = await rt.dispatcher.dispatch(CHANNELS.synthesize, { requestId: 'r', input: 'hi', inputFormat: 'text', voice: 'ryan', language: 'auto', seed: 1, params: { subtalkerTopP: 0 } }, { callerId: 't', role: 'client', emit: () => {} });
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.error).toMatchObject({ code: 'invalid-argument', details: { fields: ['params.subtalkerTopP'] } });
  });
});
