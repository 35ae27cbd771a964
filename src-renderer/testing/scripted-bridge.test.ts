// The renderer tests' scripted bridge: answers from the table (values, functions of the request,
// promises), null or the fallback for unlisted channels, thrown errors as error replies that call()
// rethrows, calls recorded in order, and events to the listeners subscribed at the time.
import { afterEach, describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import { call, setBridge, subscribe } from '../ipc/client';
import { createScriptedBridge, installScriptedBridge } from './scripted-bridge';

describe('scripted bridge', () => {
  afterEach(() => setBridge(null));

  it('answers with the scripted value, or with what the function makes of the request', async () => {
    installScriptedBridge({
      'studio:library.deleteClip': { deleted: true },
      'studio:voices.rename': ({ id, name }) => ({ id, name: name.toUpperCase() }),
      'studio:render.getQueue': () => Promise.resolve({ queueUrl: 'redis://q:6379' }),
    });
    expect(await call('studio:library.deleteClip', { id: 'c1' })).toEqual({ deleted: true });
    expect(await call('studio:voices.rename', { id: 'v1', name: 'anna' })).toEqual({ id: 'v1', name: 'ANNA' });
    expect(await call('studio:render.getQueue', {})).toEqual({ queueUrl: 'redis://q:6379' });
  });

  it('answers an unlisted channel with null, or with the fallback', async () => {
    installScriptedBridge({});
    expect(await call('studio:library.deleteClip', { id: 'c1' })).toBeNull();
    installScriptedBridge({}, (channel) => `no answer for ${channel}`);
    expect(await call('studio:library.deleteClip', { id: 'c1' })).toBe('no answer for studio:library.deleteClip');
  });

  it('turns a thrown error into an error reply that call() rethrows with its code', async () => {
    installScriptedBridge({ 'studio:voices.delete': () => Promise.reject(new StudioError('not-found', 'no voice v1')) }, (channel) => {
      throw new StudioError('unsupported', channel);
    });
    await expect(call('studio:voices.delete', { id: 'v1' })).rejects.toMatchObject({ code: 'not-found', message: 'no voice v1' });
    await expect(call('studio:library.deleteClip', { id: 'c1' })).rejects.toMatchObject({ code: 'unsupported', message: 'studio:library.deleteClip' });
  });

  it('records every call in order and lists the requests per channel', async () => {
    const bridge = installScriptedBridge({});
    await call('studio:library.deleteClip', { id: 'a' });
    await call('studio:voices.delete', { id: 'v' });
    await call('studio:library.deleteClip', { id: 'b' });
    expect(bridge.calls.map((c) => c.channel)).toEqual(['studio:library.deleteClip', 'studio:voices.delete', 'studio:library.deleteClip']);
    expect(bridge.requestsTo('studio:library.deleteClip')).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(bridge.requestsTo('studio:render.list')).toEqual([]);
  });

  it('delivers an emitted event to the listeners subscribed now, not to one that unsubscribed', () => {
    const bridge = createScriptedBridge({});
    setBridge(bridge);
    const heard: string[] = [];
    const stop = subscribe('studio:render.onDidChange', (job) => heard.push(`first ${job.id}`));
    subscribe('studio:render.onDidChange', (job) => heard.push(`second ${job.id}`));
    bridge.emit('studio:render.onDidChange', { id: 'j1' } as never);
    stop();
    bridge.emit('studio:render.onDidChange', { id: 'j2' } as never);
    expect(heard).toEqual(['first j1', 'second j1', 'second j2']);
  });
});
