/**
 * EngineHostApi: what the layers above (services/, render/, bench) need of the engine host — typed
 * calls, host events and the host's lifecycle. HostClient and EnginePool implement it; tests fake it.
 * Runs in the process that supervises engine hosts (engine-client/; see docs/architecture.md).
 */
import type { EngineStatus } from '../../src-shared/synthesis';
import type { HostMethod, HostMethods } from '../engine-protocol/protocol';
import type { HostClientState } from './host-client';

/** What the services need of the engine host (HostClient implements it; tests fake it). */
export interface EngineHostApi {
  call<M extends HostMethod>(method: M, args: HostMethods[M]['args']): Promise<HostMethods[M]['result']>;
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
  /** Host process lifecycle (starting, ready, restarting, failed); optional for fakes. */
  onDidChangeState?(listener: (state: HostClientState, detail: string) => void): () => void;
  readonly lastKnownStatus?: EngineStatus | null;
}
