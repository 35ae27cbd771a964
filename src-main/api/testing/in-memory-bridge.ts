/**
 * An in-memory protocol pair (VS Code's createProtocolPair idea): a StudioBridge for a fake
 * renderer wired to a Dispatcher in a fake main, through the same wire encoding the WebSocket
 * bridge uses, so tests exercise serialisation, replies and event routing without a transport.
 */
import type { CallReply, StudioBridge } from '../../../src-shared/ipc-contract';
import { decodeWire, encodeWire } from '../../../src-shared/wire';
import type { Dispatcher } from '../dispatcher';
import type { StudioServices } from '../../services/studio-services';

export function createInMemoryBridge(
  dispatcher: Dispatcher,
  services: StudioServices,
  callerId = 'test-renderer',
  role: 'admin' | 'client' = 'admin',
): StudioBridge & { close(): void } {
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const ctx = {
    callerId,
    role,
    emit: (event: string, payload: unknown) => {
      const copy = decodeWire(encodeWire(payload));
      queueMicrotask(() => listeners.get(event)?.forEach((l) => l(copy)));
    },
  };
  const detach = services.attach(ctx);
  return {
    async invoke(channel, request) {
      const reply = await dispatcher.dispatch(channel, decodeWire(encodeWire(request)), ctx);
      return decodeWire(encodeWire(reply)) as CallReply<never>;
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (p: unknown) => void);
      listeners.set(event, set);
      return () => set.delete(listener as (p: unknown) => void);
    },
    close: detach,
  };
}
