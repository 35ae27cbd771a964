/**
 * Main-side client of the engine host process: typed calls with one reply each, host events,
 * and crash handling — on an unexpected exit every in-flight call fails with 'engine-crashed',
 * listeners hear about it, and the host is restarted with backoff (bounded), so nothing hangs.
 */
import { StudioError } from '../../src-shared/errors';
import type { EngineStatus } from '../../src-shared/synthesis';
import type { HostProcess } from './host-process';
import type { HostMethod, HostMethods, HostToMain } from './protocol';

export interface HostClientOptions {
  spawn: () => HostProcess;
  /** Restarts allowed within restartWindowMs before the client gives up ('failed'). */
  maxRestarts?: number;
  restartWindowMs?: number;
  startTimeoutMs?: number;
  log?: (message: string) => void;
}

export type HostClientState = 'starting' | 'ready' | 'restarting' | 'failed' | 'disposed';

interface Pending {
  method: HostMethod;
  resolve: (value: unknown) => void;
  reject: (error: StudioError) => void;
}

export class HostClient {
  private proc: HostProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private state: HostClientState = 'starting';
  private restartTimesMs: number[] = [];
  private numRestarts = 0;
  private readyWaiters: { resolve: () => void; reject: (e: StudioError) => void }[] = [];
  private readonly eventListeners = new Set<(event: string, payload: unknown) => void>();
  private readonly stateListeners = new Set<(state: HostClientState, detail: string) => void>();
  private lastStatus: EngineStatus | null = null;

  constructor(private options: HostClientOptions) {}

  get currentState(): HostClientState {
    return this.state;
  }

  get restartCount(): number {
    return this.numRestarts;
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  get lastKnownStatus(): EngineStatus | null {
    return this.lastStatus;
  }

  onEvent(listener: (event: string, payload: unknown) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onDidChangeState(listener: (state: HostClientState, detail: string) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Starts the host and resolves once it reports ready. */
  start(): Promise<void> {
    this.launch();
    return this.whenReady();
  }

  whenReady(): Promise<void> {
    if (this.state === 'ready') return Promise.resolve();
    if (this.state === 'failed' || this.state === 'disposed') {
      return Promise.reject(new StudioError('engine-crashed', `the engine host is ${this.state}; restart the studio`));
    }
    const timeoutMs = this.options.startTimeoutMs ?? 120_000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new StudioError('timeout', `the engine host did not become ready within ${timeoutMs} ms; check the log above for the cause`));
      }, timeoutMs);
      this.readyWaiters.push({
        resolve: () => (clearTimeout(timer), resolve()),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
    });
  }

  async call<M extends HostMethod>(method: M, args: HostMethods[M]['args']): Promise<HostMethods[M]['result']> {
    if (method === 'status') {
      const status = (await this.rawCall('status', {})) as EngineStatus;
      return { ...status, numRestarts: this.numRestarts } as HostMethods[M]['result'];
    }
    return this.rawCall(method, args);
  }

  private async rawCall<M extends HostMethod>(method: M, args: HostMethods[M]['args']): Promise<HostMethods[M]['result']> {
    if (this.state === 'starting' || this.state === 'restarting') await this.whenReady();
    const proc = this.proc;
    if (this.state !== 'ready' || !proc) {
      throw new StudioError('engine-crashed', `the engine host is ${this.state}; restart the studio or check the engine log`);
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject });
      proc.send({ kind: 'call', id, method, args });
    });
  }

  /**
   * Replaces the host process with one started by `spawn` (e.g. another model): in-flight calls end
   * with 'cancelled', the old process is stopped, and the call resolves once the new one is ready.
   */
  async replace(spawn: () => HostProcess): Promise<void> {
    if (this.state === 'disposed') throw new StudioError('engine-crashed', 'the engine host was shut down');
    this.options = { ...this.options, spawn };
    this.failAll(new StudioError('cancelled', 'the engine is switching to another model; send the request again'));
    const old = this.proc;
    this.proc = null;
    old?.kill('SIGTERM');
    this.restartTimesMs = [];
    this.setState('restarting', 'switching model');
    this.launch();
    await this.whenReady();
  }

  /** Stops the host for good; in-flight calls fail with 'cancelled'. */
  async dispose(): Promise<void> {
    this.setState('disposed', 'disposed');
    this.failAll(new StudioError('cancelled', 'the engine host was shut down'));
    const proc = this.proc;
    this.proc = null;
    if (proc) proc.kill('SIGTERM');
  }

  private launch(): void {
    const proc = this.options.spawn();
    this.proc = proc;
    proc.onMessage((m) => this.handleMessage(proc, m));
    proc.onExit((code, signal) => this.handleExit(proc, code, signal));
  }

  private handleMessage(proc: HostProcess, m: HostToMain): void {
    if (proc !== this.proc) return;
    switch (m.kind) {
      case 'ready':
        this.lastStatus = { ...m.status, numRestarts: this.numRestarts };
        this.setState('ready', 'engine host ready');
        for (const w of this.readyWaiters.splice(0)) w.resolve();
        for (const l of this.eventListeners) l('studio:engine.onDidChangeStatus', this.lastStatus);
        return;
      case 'reply': {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.ok) p.resolve(m.value);
        else p.reject(StudioError.fromSerialized(m.error));
        return;
      }
      case 'event':
        if (m.event === 'studio:engine.onDidChangeStatus') {
          this.lastStatus = { ...(m.payload as EngineStatus), numRestarts: this.numRestarts };
          for (const l of this.eventListeners) l(m.event, this.lastStatus);
          return;
        }
        for (const l of this.eventListeners) l(m.event, m.payload);
        return;
      case 'fatal':
        this.log(`engine host reported a fatal error: ${m.error.message}`);
        for (const w of this.readyWaiters.splice(0)) w.reject(StudioError.fromSerialized(m.error));
        this.setState('failed', m.error.message);
        return;
    }
  }

  private handleExit(proc: HostProcess, code: number | null, signal: string | null): void {
    if (proc !== this.proc) return;
    this.proc = null;
    if (this.state === 'disposed') return;
    const numInFlight = this.pending.size;
    const detail = `the engine process exited (code ${code ?? 'none'}, signal ${signal ?? 'none'}) with ${numInFlight} request(s) in flight`;
    this.log(detail);
    this.failAll(new StudioError('engine-crashed', `${detail}; the engine is restarting — retry the request`, { code: code ?? -1, signal: signal ?? '' }));
    if (this.state === 'failed') return;
    const nowMs = Date.now();
    const windowMs = this.options.restartWindowMs ?? 60_000;
    this.restartTimesMs = this.restartTimesMs.filter((t) => nowMs - t < windowMs);
    if (this.restartTimesMs.length >= (this.options.maxRestarts ?? 5)) {
      const error = new StudioError('engine-crashed', `${detail}; it crashed ${this.restartTimesMs.length} times within ${windowMs} ms, so it is not restarted again — check the engine log`);
      for (const w of this.readyWaiters.splice(0)) w.reject(error);
      this.setState('failed', error.message);
      return;
    }
    this.restartTimesMs.push(nowMs);
    this.numRestarts++;
    this.setState('restarting', detail);
    const backoffMs = Math.min(5_000, 100 * 2 ** (this.restartTimesMs.length - 1));
    setTimeout(() => {
      if (this.state === 'restarting') this.launch();
    }, backoffMs);
  }

  private failAll(error: StudioError): void {
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const p of entries) p.reject(error);
  }

  private setState(state: HostClientState, detail: string): void {
    if (this.state === 'disposed' && state !== 'disposed') return;
    this.state = state;
    for (const l of this.stateListeners) l(state, detail);
  }

  private log(message: string): void {
    (this.options.log ?? ((m: string) => console.warn(`[engine-host] ${m}`)))(message);
  }
}
