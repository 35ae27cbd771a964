/**
 * Main-side client (the supervisor) of the engine host process: typed calls with one reply each,
 * host events, and crash handling — on an unexpected exit every in-flight call fails with
 * 'engine-crashed' (details.accepted false for a synthesize call the host had not yet accepted: the
 * caller may send it elsewhere), listeners hear about it, and the host is restarted with backoff
 * (bounded), so nothing hangs. A watchdog pings the host; one that stops answering (a blocked event loop) or sits
 * in one engine step too long is reported not ready, then killed and restarted the same way.
 * Request counters live here, so they survive restarts.
 * Runs in the process that supervises engine hosts (engine-client/; see docs/architecture.md).
 */
import { StudioError, toStudioError } from '../../src-shared/errors';
import { formatCount } from '../../src-shared/format-count';
import type { EngineStatus } from '../../src-shared/synthesis';
import type { HostProcess } from './host-process';
import type { HostHeartbeat, HostMethod, HostMethods, HostToMain } from '../engine-protocol/protocol';
import { RequestCounters, type HostRequestCounters } from './request-counters';
import { Emitter } from '../../src-shared/emitter';

/** The watchdog's bounds; defaultHostWatchdogConfig() holds the defaults. */
export interface HostWatchdogConfig {
  /** How often a ready host is pinged (one ping outstanding at a time). */
  heartbeatIntervalMs: number;
  /** A ping unanswered this long, or one engine step running this long, makes health().ready false. */
  unreadyAfterMs: number;
  /** ... this long, and the host is killed and restarted; its calls fail with 'engine-crashed'. 0: never. */
  stallTimeoutMs: number;
}

/**
 * 30 s: far above the longest synchronous stretch a healthy host has (tokenizing the longest
 * admissible text is well under 1 s; one engine step on CPU takes tens to hundreds of ms).
 */
export function defaultHostWatchdogConfig(): HostWatchdogConfig {
  return { heartbeatIntervalMs: 1_000, unreadyAfterMs: 5_000, stallTimeoutMs: 30_000 };
}

/** What /readyz and /status read, synchronously (no call to the host, so a stuck host cannot stall them). */
export interface HostHealth {
  /** True only when the host is up, answers heartbeats and is not stuck in a step: serve 200 on /readyz. */
  ready: boolean;
  state: HostClientState;
  /** Why it is not ready (or 'ready'). */
  detail: string;
  /** How long the outstanding heartbeat has waited for its reply (0 when none is outstanding). */
  heartbeatWaitMs: number;
  /** The host's last report of how long its current engine step has run. */
  stepAgeMs: number;
}

export interface HostClientOptions {
  spawn: () => HostProcess;
  /** Restarts allowed within restartWindowMs before the client gives up ('failed'). */
  maxRestarts?: number;
  restartWindowMs?: number;
  startTimeoutMs?: number;
  /** Overrides of defaultHostWatchdogConfig(). */
  watchdog?: Partial<HostWatchdogConfig>;
  /**
   * dispose() waits this long for the host to exit after SIGTERM, then SIGKILLs it and waits as long again:
   * a GPU engine's memory is free only once its process has gone, and the next engine (a bench level, a
   * restarted server) ran out of GPU memory beside one still exiting (H100, 2026-12-07). Default 10,000.
   */
  stopTimeoutMs?: number;
  log?: (message: string) => void;
}

export type HostClientState = 'starting' | 'ready' | 'restarting' | 'failed' | 'disposed';

interface Pending {
  method: HostMethod;
  resolve: (value: unknown) => void;
  reject: (error: StudioError) => void;
  /** synthesize: the host said it took the call ('accepted'); until then a crash means it never had it. */
  accepted: boolean;
}

export class HostClient {
  private proc: HostProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private state: HostClientState = 'starting';
  private restartTimesMs: number[] = [];
  /** Settles when each spawned process has exited (dispose waits for it). */
  private readonly exits = new WeakMap<HostProcess, Promise<void>>();
  private readonly counters = new RequestCounters();
  /** Errors of calls that failed because their host died or stalled (counted as crashed). */
  private readonly crashErrors = new WeakSet<StudioError>();
  private readonly watchdog: HostWatchdogConfig;
  private heartbeatTimer: ReturnType<typeof setInterval> | null = null;
  private ping: { id: number; sentMs: number } | null = null;
  private lastStepAgeMs = 0;
  private stateDetail = 'starting';
  private readyWaiters: { resolve: () => void; reject: (e: StudioError) => void }[] = [];
  private readonly eventListeners = new Emitter<[event: string, payload: unknown]>();
  private readonly stateListeners = new Emitter<[state: HostClientState, detail: string]>();
  private lastStatus: EngineStatus | null = null;

  constructor(private options: HostClientOptions) {
    this.watchdog = { ...defaultHostWatchdogConfig(), ...options.watchdog };
  }

  get currentState(): HostClientState {
    return this.state;
  }

  get restartCount(): number {
    return this.counters.numRestarts;
  }

  /** Readiness for /readyz: false while starting, restarting, failed, or while the host does not answer. */
  health(nowMs = performance.now()): HostHealth {
    const heartbeatWaitMs = this.ping ? nowMs - this.ping.sentMs : 0;
    const base = { state: this.state, heartbeatWaitMs, stepAgeMs: this.lastStepAgeMs };
    if (this.state !== 'ready') return { ...base, ready: false, detail: this.stateDetail };
    if (heartbeatWaitMs >= this.watchdog.unreadyAfterMs) {
      return { ...base, ready: false, detail: `the engine host has not answered a heartbeat for ${Math.round(heartbeatWaitMs)} ms` };
    }
    if (this.lastStepAgeMs >= this.watchdog.unreadyAfterMs) {
      return { ...base, ready: false, detail: `the engine host has been in one engine step for ${Math.round(this.lastStepAgeMs)} ms` };
    }
    return { ...base, ready: true, detail: 'ready' };
  }

  /** Cumulative request counters (since this client was created; engine host restarts do not reset them). */
  requestCounters(): HostRequestCounters {
    return this.counters.snapshot();
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  get lastKnownStatus(): EngineStatus | null {
    return this.lastStatus;
  }

  /** The host's events as it sends them (a status event also updates lastKnownStatus first). */
  readonly onEvent = this.eventListeners.event;
  readonly onDidChangeState = this.stateListeners.event;

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
      return { ...status, numRestarts: this.counters.numRestarts } as HostMethods[M]['result'];
    }
    if (method === 'synthesize') return this.countedCall(method, args);
    return this.rawCall(method, args);
  }

  private async countedCall<M extends HostMethod>(method: M, args: HostMethods[M]['args']): Promise<HostMethods[M]['result']> {
    this.counters.noteStarted();
    try {
      const value = await this.rawCall(method, args);
      this.counters.noteCompleted();
      return value;
    } catch (err) {
      const error = toStudioError(err);
      this.counters.noteFailed(error.code, err instanceof StudioError && this.crashErrors.has(err));
      throw err;
    }
  }

  private async rawCall<M extends HostMethod>(method: M, args: HostMethods[M]['args']): Promise<HostMethods[M]['result']> {
    if (this.state === 'starting' || this.state === 'restarting') await this.whenReady();
    const proc = this.proc;
    if (this.state !== 'ready' || !proc) {
      throw new StudioError('engine-crashed', `the engine host is ${this.state}; restart the studio or check the engine log`);
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject, accepted: false });
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
    this.forgetWorkInFlight();
    const old = this.proc;
    this.proc = null;
    this.ping = null;
    this.restartTimesMs = [];
    this.setState('restarting', 'switching model');
    // the new engine starts once the old one has gone: on a GPU both would not fit
    if (old) await this.stop(old);
    if (this.currentState === 'disposed') throw new StudioError('engine-crashed', 'the engine host was shut down');
    this.launch();
    await this.whenReady();
  }

  /** Stops the host for good; in-flight calls fail with 'cancelled'. */
  async dispose(): Promise<void> {
    this.setState('disposed', 'disposed');
    this.ping = null;
    this.failAll(new StudioError('cancelled', 'the engine host was shut down'));
    this.forgetWorkInFlight();
    const proc = this.proc;
    this.proc = null;
    if (proc) await this.stop(proc);
  }

  /** SIGTERM, and back once the process has exited; SIGKILL when it outlives stopTimeoutMs (a GPU engine's memory is free only then). */
  private async stop(proc: HostProcess): Promise<void> {
    const exited = this.exits.get(proc);
    proc.kill('SIGTERM');
    const waitMs = this.options.stopTimeoutMs ?? 10_000;
    if (!exited || (await settlesWithin(exited, waitMs))) return;
    this.log(`the engine host did not exit within ${waitMs} ms of SIGTERM; killing it`);
    proc.kill('SIGKILL');
    if (!(await settlesWithin(exited, waitMs))) this.log(`the engine host had not exited ${waitMs} ms after SIGKILL; going on without it`);
  }

  private launch(): void {
    this.ping = null;
    this.lastStepAgeMs = 0;
    const proc = this.options.spawn();
    this.proc = proc;
    let onExit = () => {};
    this.exits.set(proc, new Promise<void>((resolve) => (onExit = resolve)));
    proc.onMessage((m) => this.handleMessage(proc, m));
    proc.onExit((code, signal) => {
      onExit();
      this.handleExit(proc, code, signal);
    });
  }

  private handleMessage(proc: HostProcess, m: HostToMain): void {
    if (proc !== this.proc) return;
    switch (m.kind) {
      case 'ready':
        this.lastStatus = { ...m.status, numRestarts: this.counters.numRestarts };
        this.setState('ready', 'engine host ready');
        for (const w of this.readyWaiters.splice(0)) w.resolve();
        this.startWatchdog(proc);
        this.eventListeners.fire('studio:engine.onDidChangeStatus', this.lastStatus);
        return;
      case 'accepted': {
        const p = this.pending.get(m.id);
        if (p) p.accepted = true;
        return;
      }
      case 'reply': {
        if (this.ping && m.id === this.ping.id) {
          this.ping = null;
          this.lastStepAgeMs = m.ok ? ((m.value as HostHeartbeat | undefined)?.stepAgeMs ?? 0) : 0;
          return;
        }
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.ok) p.resolve(m.value);
        else p.reject(StudioError.fromSerialized(m.error));
        return;
      }
      case 'event':
        if (m.event === 'studio:engine.onDidChangeStatus') {
          this.lastStatus = { ...(m.payload as EngineStatus), numRestarts: this.counters.numRestarts };
          this.eventListeners.fire(m.event, this.lastStatus);
          return;
        }
        this.eventListeners.fire(m.event, m.payload);
        return;
      case 'fatal':
        this.log(`engine host reported a fatal error: ${m.error.message}`);
        for (const w of this.readyWaiters.splice(0)) w.reject(StudioError.fromSerialized(m.error));
        this.setState('failed', m.error.message);
        return;
    }
  }

  /** Pings the ready host every heartbeatIntervalMs and kills it when it stalls; stops when it leaves 'ready'. */
  private startWatchdog(proc: HostProcess): void {
    this.stopWatchdog();
    const timer = setInterval(() => {
      if (proc !== this.proc || this.state !== 'ready') return this.stopWatchdog();
      this.checkHeartbeat(proc);
    }, this.watchdog.heartbeatIntervalMs);
    timer.unref?.();
    this.heartbeatTimer = timer;
  }

  private stopWatchdog(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }

  private checkHeartbeat(proc: HostProcess): void {
    const nowMs = performance.now();
    const stallMs = this.watchdog.stallTimeoutMs;
    if (this.ping) {
      const waitedMs = nowMs - this.ping.sentMs;
      if (stallMs > 0 && waitedMs >= stallMs) return this.stall(proc, `the engine host stopped responding (no heartbeat reply for ${formatCount(Math.round(waitedMs))} ms)`, 'unresponsive');
      return;
    }
    if (stallMs > 0 && this.lastStepAgeMs >= stallMs) {
      return this.stall(proc, `the engine host is stuck (one engine step has run for ${formatCount(Math.round(this.lastStepAgeMs))} ms)`, 'stuck-step');
    }
    const id = this.nextId++;
    this.ping = { id, sentMs: nowMs };
    proc.send({ kind: 'call', id, method: 'ping', args: {} });
  }

  /** The watchdog's verdict: fail what is in flight, kill the process, and restart as after a crash. */
  private stall(proc: HostProcess, detail: string, reason: 'unresponsive' | 'stuck-step'): void {
    this.stopWatchdog();
    this.counters.noteStall();
    this.handleExit(proc, null, 'SIGKILL', { detail: `${detail} with ${this.pending.size} request(s) in flight; it was killed`, reason });
    proc.kill('SIGKILL');
  }

  private handleExit(proc: HostProcess, code: number | null, signal: string | null, stalled?: { detail: string; reason: string }): void {
    if (proc !== this.proc) return;
    this.proc = null;
    this.stopWatchdog();
    this.ping = null;
    if (this.state === 'disposed') return;
    const numInFlight = this.pending.size;
    const detail = stalled?.detail ?? `the engine process exited (code ${code ?? 'none'}, signal ${signal ?? 'none'}) with ${numInFlight} request(s) in flight`;
    this.log(detail);
    const details = { code: code ?? -1, signal: signal ?? '', reason: stalled?.reason ?? 'exited' };
    this.failAll(new StudioError('engine-crashed', `${detail}; the engine is restarting — retry the request`, details), true, {
      notTaken: new StudioError('engine-crashed', `${detail} before it took this request; the engine is restarting — send it again`, { ...details, accepted: false }),
    });
    this.forgetWorkInFlight();
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
    this.counters.noteRestart();
    this.setState('restarting', detail);
    const backoffMs = Math.min(5_000, 100 * 2 ** (this.restartTimesMs.length - 1));
    setTimeout(() => {
      if (this.state === 'restarting') this.launch();
    }, backoffMs);
  }

  /**
   * Rejects every call in flight; `crashed` marks them as lost with their host (counted as crashed).
   * `notTaken`: the error for synthesize calls the host never accepted (details.accepted false).
   */
  private failAll(error: StudioError, crashed = false, options: { notTaken?: StudioError } = {}): void {
    const notTaken = options.notTaken ?? error;
    if (crashed) for (const e of [error, notTaken]) this.crashErrors.add(e);
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const p of entries) p.reject(p.method === 'synthesize' && !p.accepted ? notTaken : error);
  }

  /**
   * The last status's queue and in-flight gauges go to zero once failAll has answered every call
   * (its process is gone), so /status and the UI do not show work that no longer exists.
   */
  private forgetWorkInFlight(): void {
    if (this.lastStatus) this.lastStatus = { ...this.lastStatus, queueDepth: 0, numWaiting: 0, numRunning: 0, numInFlight: 0, gpuLeased: false };
  }

  private setState(state: HostClientState, detail: string): void {
    if (this.state === 'disposed' && state !== 'disposed') return;
    if (state !== 'ready') this.stopWatchdog();
    this.state = state;
    this.stateDetail = detail;
    this.stateListeners.fire(state, detail);
  }

  private log(message: string): void {
    (this.options.log ?? ((m: string) => console.warn(`[engine-host] ${m}`)))(message);
  }
}

/** True when `p` settles within `ms`. */
function settlesWithin(p: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([p.then(() => true), late]).finally(() => clearTimeout(timer));
}
