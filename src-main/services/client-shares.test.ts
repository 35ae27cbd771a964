/**
 * A remote client's share of the engine's queue: its synthesize calls in flight, over all its
 * connections, are refused 'busy' with a retry hint past its share, before reaching the engine host;
 * other clients and this machine are not held by it.
 */
import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../src-shared/ipc-contract';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import type { CallContext } from '../api/dispatcher';
import { Dispatcher } from '../api/dispatcher';
import type { EngineHostApi } from '../engine-client/engine-host-api';
import { checkSynthesisShare, defaultClientShareLimits } from './client-shares';
import { StudioServices } from './studio-services';

const ctx = (callerId: string, clientId: string | undefined, role: 'admin' | 'client' = 'client'): CallContext => ({ callerId, clientId, role, emit: () => {} });

describe('checkSynthesisShare', () => {
  it('refuses a remote client at its share, counting all its connections, and nobody else', () => {
    const limits = { maxSynthesesPerClient: 2, retryAfterS: 3 };
    const inFlight = [ctx('ws-1', 'remote 10.0.0.9'), ctx('http-a', 'remote 10.0.0.9'), ctx('ws-2', 'remote 10.0.0.7')];
    expect(() => checkSynthesisShare(inFlight, ctx('ws-3', 'remote 10.0.0.9'), limits)).toThrow(expect.objectContaining({ code: 'busy', details: { numInFlight: 2, limit: 2, retryAfterS: 3 } }));
    expect(() => checkSynthesisShare(inFlight, ctx('ws-4', 'remote 10.0.0.7'), limits)).not.toThrow();
    const local = [ctx('http-b', 'local'), ctx('http-c', 'local'), ctx('w', undefined, 'admin')];
    expect(() => checkSynthesisShare(local, ctx('http-d', 'local'), limits)).not.toThrow();
    expect(() => checkSynthesisShare([...local, ...local], ctx('w', undefined, 'admin'), limits)).not.toThrow();
  });

  it('has documented defaults', () => {
    expect(defaultClientShareLimits()).toEqual({ maxSynthesesPerClient: 16, retryAfterS: 2 });
  });
});

describe('tts.synthesize and the share', () => {
  it('refuses the 17th request of one remote client without calling the engine host, and takes another client’s', async () => {
    let numHostCalls = 0;
    const host: EngineHostApi = { onEvent: () => () => {}, call: (async (method: string) => (method === 'synthesize' ? (numHostCalls++, new Promise(() => {})) : {})) as EngineHostApi['call'] };
    const services = new StudioServices({ host, appInfo: () => ({ version: 't', hostKind: 'headless', platform: 'linux', userDataDir: '/tmp', syntheticModel: true }) });
    const dispatcher = new Dispatcher(services.handlers, { warn: () => {} });
    const request = (requestId: string): SynthesisRequest => ({ requestId, input: 'hi', inputFormat: 'text', voice: 'ryan', language: 'english', seed: 1 });
    for (let i = 0; i < 16; i++) void dispatcher.dispatch(CHANNELS.synthesize, request(`r${i}`), ctx(`ws-${i % 5}`, 'remote 10.0.0.9'));
    await new Promise((r) => setTimeout(r, 10));
    expect(numHostCalls).toBe(16);
    const refused = await dispatcher.dispatch(CHANNELS.synthesize, request('r16'), ctx('ws-5', 'remote 10.0.0.9'));
    expect(refused).toMatchObject({ ok: false, error: { code: 'busy', details: { numInFlight: 16, limit: 16 } } });
    void dispatcher.dispatch(CHANNELS.synthesize, request('other'), ctx('ws-9', 'remote 10.0.0.7'));
    await new Promise((r) => setTimeout(r, 10));
    expect(numHostCalls).toBe(17);
  });
});
