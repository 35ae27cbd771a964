/**
 * Several engine hosts on one machine: one supervised HostClient per device, each with its own
 * scheduler, behind the same surface as one HostClient (what StudioStack.host offers). A request
 * goes whole to the engine with the most free capacity (SSML turns are split inside the engine host,
 * so a request's turns stay on one engine); cancel follows it there. A request whose engine died
 * (or refused it, draining) before accepting it goes to another engine; one it had accepted fails
 * with the crash. Status, drain (whole pool or one engine), model switches and crash-restarts work
 * per engine. With one engine every call passes straight through.
 * Runs in the process that supervises engine hosts (engine-client/; see docs/architecture.md).
 */
import { StudioError, toStudioError } from '../../src-shared/errors';
import type { EngineStatus, EngineSummary } from '../../src-shared/synthesis';
import { HostClient, type HostClientOptions, type HostClientState, type HostHealth } from './host-client';
import type { HostProcess } from './host-process';
import type { HostMethod, HostMethods } from '../engine-protocol/protocol';
import type { HostRequestCounters } from './request-counters';
import { Emitter } from '../../src-shared/emitter';

export interface EnginePoolOptions extends Omit<HostClientOptions, 'spawn'> {
  /** One spawner per engine; its index is the engine's index. */
  spawns: readonly (() => HostProcess)[];
  /** What each engine runs on ('cuda:0', 'cpu#1'), for /status and the dashboard. */
  labels?: readonly string[];
}

/** One engine of the pool as /status shows it. */
export interface PoolEngineEntry extends EngineSummary {
  health: HostHealth;
  totals: HostRequestCounters;
  /** Taken out of the rotation by drainEngine: finishes what it has, takes nothing new. */
  draining: boolean;
}

const STATUS_EVENT = 'studio:engine.onDidChangeStatus';

export class EnginePool {
  readonly engines: readonly HostClient[];
  readonly labels: readonly string[];
  /** synthesize calls each engine holds now (the router's measure of load). */
  private readonly numInFlight: number[];
  /** requestId → engine index while the request runs, so cancel reaches its engine. */
  private readonly owners = new Map<string, number>();
  /** Engines taken out of the rotation by drainEngine (no new request goes to them). */
  private readonly draining = new Set<number>();
  /** Per engine: who waits for its synthesize calls to reach zero (drainEngine). */
  private readonly idleWaiters: (() => void)[][];
  private readonly eventListeners = new Emitter<[event: string, payload: unknown]>();
  private readonly stateListeners = new Emitter<[state: HostClientState, detail: string]>();
  private lastState: HostClientState = 'starting';
  private readonly log: ((m: string) => void) | undefined;

  constructor(options: EnginePoolOptions) {
    if (options.spawns.length === 0) throw new StudioError('invalid-argument', 'an engine pool needs at least one engine', { field: 'devices' });
    const { spawns, labels, log, ...hostOptions } = options;
    this.log = log;
    this.labels = spawns.map((_, i) => labels?.[i] ?? `engine ${i}`);
    this.numInFlight = spawns.map(() => 0);
    this.idleWaiters = spawns.map(() => []);
    this.engines = spawns.map((spawn, i) => {
      const prefix = spawns.length > 1 ? `[${this.labels[i]}] ` : '';
      return new HostClient({ ...hostOptions, spawn, log: log ? (m) => log(prefix + m) : undefined });
    });
    this.engines.forEach((engine) => {
      engine.onEvent((event, payload) => this.forwardEvent(event, payload));
      engine.onDidChangeState((state, detail) => this.noteStateChange(state, detail));
    });
  }

  get size(): number {
    return this.engines.length;
  }

  /** 'ready' while any engine is ready; otherwise the most hopeful state of the rest. */
  get currentState(): HostClientState {
    const states = this.engines.map((e) => e.currentState);
    for (const s of ['ready', 'restarting', 'starting', 'failed'] as const) if (states.includes(s)) return s;
    return 'disposed';
  }

  get restartCount(): number {
    return this.engines.reduce((n, e) => n + e.restartCount, 0);
  }

  /** The first engine's process id (one engine: the host's pid, as HostClient.pid). */
  get pid(): number | undefined {
    return this.engines[0].pid;
  }

  /** Ready while any engine is ready; the detail names the engines that are not. */
  health(nowMs = performance.now()): HostHealth {
    const all = this.engines.map((e) => e.health(nowMs));
    if (all.length === 1) return all[0];
    const ready = all.filter((h) => h.ready);
    const pick = ready[0] ?? all[0];
    const notReady = all.map((h, i) => (h.ready ? '' : `${this.labels[i]}: ${h.detail}`)).filter(Boolean);
    const detail = ready.length === all.length ? 'ready' : `${ready.length}/${all.length} engines ready; ${notReady.join('; ')}`;
    return { ...pick, ready: ready.length > 0, state: this.currentState, detail };
  }

  /** The engines' cumulative counters added up (numFailedByCode per code). */
  requestCounters(): HostRequestCounters {
    const all = this.engines.map((e) => e.requestCounters());
    if (all.length === 1) return all[0];
    const sum: HostRequestCounters = { numStarted: 0, numCompleted: 0, numFailed: 0, numCancelled: 0, numCrashed: 0, numInFlight: 0, numRestarts: 0, numStalls: 0, numFailedByCode: {} };
    for (const c of all) {
      for (const k of ['numStarted', 'numCompleted', 'numFailed', 'numCancelled', 'numCrashed', 'numInFlight', 'numRestarts', 'numStalls'] as const) sum[k] += c[k];
      for (const [code, n] of Object.entries(c.numFailedByCode)) sum.numFailedByCode[code as keyof HostRequestCounters['numFailedByCode']] = (sum.numFailedByCode[code as keyof HostRequestCounters['numFailedByCode']] ?? 0) + (n ?? 0);
    }
    return sum;
  }

  /** The engines' last statuses combined (one engine: its status as is). */
  get lastKnownStatus(): EngineStatus | null {
    if (this.engines.length === 1) return this.engines[0].lastKnownStatus;
    return this.combine(this.engines.map((e) => e.lastKnownStatus));
  }

  /** Each engine: label, state, pid, load and counters (what /status lists under `engines`). */
  engineEntries(nowMs = performance.now()): PoolEngineEntry[] {
    return this.engines.map((e, i) => {
      const health = e.health(nowMs);
      const s = e.lastKnownStatus;
      return {
        index: i,
        label: this.labels[i],
        pid: e.pid ?? null,
        hostState: health.state,
        ready: health.ready,
        draining: this.draining.has(i),
        provider: s?.provider ?? '',
        numInFlight: this.numInFlight[i],
        numRunning: s?.numRunning ?? 0,
        numWaiting: s?.numWaiting ?? 0,
        numCompleted: e.requestCounters().numCompleted,
        numRestarts: e.restartCount,
        health,
        totals: e.requestCounters(),
      };
    });
  }

  /** Every engine's host events (with several engines, a status change as the pool's combined status). */
  readonly onEvent = this.eventListeners.event;
  /** The pool's combined state (currentState) each time it changes; one engine: every change of it. */
  readonly onDidChangeState = this.stateListeners.event;

  /**
   * Starts every engine and resolves once each is ready or has failed, if at least one is ready
   * (the others are logged and keep restarting or stay failed); rejects when none starts.
   */
  async start(): Promise<void> {
    if (this.engines.length === 1) return this.engines[0].start();
    const outcomes = await Promise.allSettled(this.engines.map((e) => e.start()));
    const failures = outcomes.map((o, i) => (o.status === 'rejected' ? `${this.labels[i]}: ${toStudioError(o.reason).message}` : '')).filter(Boolean);
    if (failures.length === outcomes.length) throw toStudioError((outcomes[0] as PromiseRejectedResult).reason);
    for (const f of failures) this.log?.(`engine did not start: ${f}`);
  }

  /** Resolves once any engine is ready; rejects only when none can become ready. */
  whenReady(): Promise<void> {
    if (this.engines.length === 1) return this.engines[0].whenReady();
    return Promise.any(this.engines.map((e) => e.whenReady())).catch((err: AggregateError) => {
      throw toStudioError(err.errors[0]);
    });
  }

  async call<M extends HostMethod>(method: M, args: HostMethods[M]['args']): Promise<HostMethods[M]['result']> {
    if (this.engines.length === 1) return this.engines[0].call(method, args);
    switch (method) {
      case 'synthesize':
        return this.synthesize(args as HostMethods['synthesize']['args']) as Promise<HostMethods[M]['result']>;
      case 'cancel':
        return this.cancel(args as HostMethods['cancel']['args']) as Promise<HostMethods[M]['result']>;
      case 'status':
        return this.status() as Promise<HostMethods[M]['result']>;
      case 'drain': {
        const all = await Promise.all(this.engines.map((e) => e.call('drain', args as HostMethods['drain']['args']).catch(() => ({ numFinished: 0, numCancelled: 0 }))));
        return { numFinished: all.reduce((n, r) => n + r.numFinished, 0), numCancelled: all.reduce((n, r) => n + r.numCancelled, 0) } as HostMethods[M]['result'];
      }
      default:
        return this.engines[Math.max(0, this.pickEngine())].call(method, args);
    }
  }

  /**
   * Takes engine `index` out of the rotation: no new request goes to it; its requests in flight may
   * finish within `graceMs`, and those still running then are cancelled. It stays out (its host
   * keeps running, idle) until undrainEngine(index). Refuses to drain the last engine in rotation:
   * drain the whole pool ('drain') for that.
   */
  async drainEngine(index: number, graceMs: number): Promise<{ numFinished: number; numCancelled: number }> {
    this.checkIndex(index);
    if (!this.draining.has(index) && this.draining.size >= this.engines.length - 1) {
      throw new StudioError('invalid-argument', `engine ${this.labels[index]} is the last one taking requests; drain the whole pool instead, or undrain another engine first`, { field: 'index', index });
    }
    this.draining.add(index);
    const before = this.numInFlight[index];
    if (before > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([new Promise<void>((resolve) => this.idleWaiters[index].push(resolve)), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    const left = [...this.owners].filter(([, i]) => i === index).map(([requestId]) => requestId);
    await Promise.all(left.map((requestId) => this.engines[index].call('cancel', { requestId }).catch(() => null)));
    return { numFinished: before - left.length, numCancelled: left.length };
  }

  /** Puts a drained engine back into the rotation. */
  undrainEngine(index: number): void {
    this.checkIndex(index);
    this.draining.delete(index);
  }

  private checkIndex(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.engines.length) {
      throw new StudioError('invalid-argument', `engine index ${index} is not in the pool; give 0 to ${this.engines.length - 1} (see engines in /status)`, { field: 'index', index });
    }
  }

  /**
   * Restarts every engine on another model (spawnFor(i) starts engine i); in-flight calls end with
   * 'cancelled'. Resolves once all are ready.
   */
  async replace(spawnFor: (index: number) => HostProcess): Promise<void> {
    await Promise.all(this.engines.map((e, i) => e.replace(() => spawnFor(i))));
  }

  async dispose(): Promise<void> {
    await Promise.all(this.engines.map((e) => e.dispose()));
  }

  /**
   * The engine with the most free capacity: among ready engines in the rotation (else all in it
   * that are not failed or disposed), the fewest synthesize calls in flight; ties go to the lower
   * index. -1 when every engine is excluded (`exclude`: those a request already tried).
   */
  pickEngine(exclude: ReadonlySet<number> = new Set()): number {
    const inRotation = this.engines.map((_, i) => i).filter((i) => !this.draining.has(i) && !exclude.has(i));
    const usable = (i: number) => !['failed', 'disposed'].includes(this.engines[i].currentState);
    const ready = inRotation.filter((i) => this.engines[i].health().ready);
    const candidates = ready.length > 0 ? ready : inRotation.filter(usable);
    if (candidates.length === 0) return exclude.size > 0 || inRotation.length === 0 ? -1 : inRotation[0]; // all failed: its call reports why
    return candidates.reduce((best, i) => (this.numInFlight[i] < this.numInFlight[best] ? i : best));
  }

  /**
   * Sends the request to the least loaded engine; when that engine dies before it accepted the
   * request, or refuses it because it is draining, sends it to another (each engine once). A request
   * an engine had accepted is never sent again: its crash may be the request's own doing.
   */
  private async synthesize(request: HostMethods['synthesize']['args']): Promise<HostMethods['synthesize']['result']> {
    const tried = new Set<number>();
    for (;;) {
      const index = this.pickEngine(tried);
      if (index < 0) throw new StudioError('unavailable', 'every engine is draining; retry when one is back in rotation', { retryAfterS: 5 });
      tried.add(index);
      try {
        return await this.synthesizeOn(index, request);
      } catch (err) {
        const error = toStudioError(err);
        const notTaken = (error.code === 'engine-crashed' && error.details.accepted === false) || error.code === 'unavailable';
        if (!notTaken || this.pickEngine(tried) < 0) throw err;
        this.log?.(`request ${request.requestId} was not taken by ${this.labels[index]} (${error.message}); sending it to another engine`);
      }
    }
  }

  private async synthesizeOn(index: number, request: HostMethods['synthesize']['args']): Promise<HostMethods['synthesize']['result']> {
    this.numInFlight[index]++;
    this.owners.set(request.requestId, index);
    try {
      return await this.engines[index].call('synthesize', request);
    } finally {
      this.numInFlight[index]--;
      if (this.owners.get(request.requestId) === index) this.owners.delete(request.requestId);
      if (this.numInFlight[index] === 0) for (const w of this.idleWaiters[index].splice(0)) w();
    }
  }

  private async cancel(args: HostMethods['cancel']['args']): Promise<HostMethods['cancel']['result']> {
    const index = this.owners.get(args.requestId);
    if (index !== undefined) return this.engines[index].call('cancel', args);
    return { cancelled: false };
  }

  /** Live status of the ready engines (last known for the rest), combined, with one entry per engine. */
  private async status(): Promise<EngineStatus> {
    const all = await Promise.all(this.engines.map((e) => (e.health().ready ? e.call('status', {}).catch(() => e.lastKnownStatus) : Promise.resolve(e.lastKnownStatus))));
    return this.combine(all) as EngineStatus;
  }

  /** Adds the engines' loads and counts up; provider, model and version from the first that has them. */
  private combine(all: (EngineStatus | null)[]): EngineStatus | null {
    const known = all.filter((s): s is EngineStatus => s !== null);
    if (known.length === 0) return null;
    const first = known[0];
    const add = (k: 'queueDepth' | 'numWaiting' | 'numRunning' | 'numInFlight' | 'numCompleted' | 'numFailed' | 'numCancelled' | 'numRejected') => known.reduce((n, s) => n + (s[k] ?? 0), 0);
    const state = this.currentState;
    return {
      ...first,
      state: state === 'ready' ? (known.some((s) => s.state === 'ready') ? 'ready' : first.state) : state === 'failed' ? 'failed' : state === 'restarting' ? 'restarting' : first.state,
      queueDepth: add('queueDepth'),
      numWaiting: add('numWaiting'),
      numRunning: add('numRunning'),
      numInFlight: add('numInFlight'),
      gpuLeased: known.some((s) => s.gpuLeased),
      numCompleted: add('numCompleted'),
      numFailed: add('numFailed'),
      numCancelled: add('numCancelled'),
      numRejected: add('numRejected'),
      numRestarts: this.restartCount,
      engines: this.engineEntries().map(({ health: _h, totals: _t, draining: _d, ...summary }) => summary),
    };
  }

  private forwardEvent(event: string, payload: unknown): void {
    // With several engines, one engine's status change is announced as the pool's combined status.
    const out = this.engines.length > 1 && event === STATUS_EVENT ? (this.lastKnownStatus ?? payload) : payload;
    this.eventListeners.fire(event, out);
  }

  /** One engine: its every change as is. Several: the combined state, when it changes. */
  private noteStateChange(engineState: HostClientState, engineDetail: string): void {
    if (this.engines.length === 1) {
      this.stateListeners.fire(engineState, engineDetail);
      return;
    }
    // Every engine's change reaches the dashboard as the combined status (its engines table).
    const combined = this.lastKnownStatus;
    if (combined) this.eventListeners.fire(STATUS_EVENT, combined);
    const state = this.currentState;
    if (state === this.lastState) return;
    this.lastState = state;
    const detail = this.health().detail;
    this.stateListeners.fire(state, detail);
  }
}
