/**
 * A scriptable in-process stand-in for the engine host process, for tests of the layers above it
 * (HostClient, services, headless server). Answers calls through a handler map (heartbeat pings by
 * default) and accepts synthesize calls as the real host does; can crash on demand, or hang — stop
 * answering and accepting anything, as a blocked event loop (or a process already dead) does.
 */
import type { HostProcess } from '../host-process';
import type { HostMethod, HostToMain, MainToHost } from '../../engine-protocol/protocol';

export type FakeHandler = (args: unknown, proc: FakeHostProcess) => unknown | Promise<unknown>;

export class FakeHostProcess implements HostProcess {
  private messageListeners: ((m: HostToMain) => void)[] = [];
  private exitListeners: ((code: number | null, signal: string | null) => void)[] = [];
  readonly sent: MainToHost[] = [];
  private hung = false;
  private readonly held: MainToHost[] = [];
  /** Signals kill() was called with. */
  readonly kills: (NodeJS.Signals | undefined)[] = [];

  constructor(
    readonly pid: number,
    private readonly handlers: Partial<Record<HostMethod, FakeHandler>> = {},
    readyDelayMs = 1,
  ) {
    this.handlers = { ping: () => ({ stepAgeMs: 0, numJobs: 0 }), ...handlers };
    setTimeout(() => this.emit({ kind: 'ready', status: { state: 'ready' } as never }), readyDelayMs);
  }

  send(m: MainToHost): void {
    this.sent.push(m);
    this.answer(m);
  }

  private answer(m: MainToHost): void {
    if (this.hung) {
      this.held.push(m);
      return;
    }
    if (m.method === 'synthesize') this.emit({ kind: 'accepted', id: m.id }); // as the real host, before any work
    const handler = this.handlers[m.method];
    if (!handler) return; // never answered: stays in flight
    void Promise.resolve()
      .then(() => handler(m.args, this))
      .then(
        (value) => this.emit({ kind: 'reply', id: m.id, ok: true, value }),
        (err: { code?: string; message?: string }) =>
          this.emit({ kind: 'reply', id: m.id, ok: false, error: { code: (err.code ?? 'internal') as never, message: err.message ?? String(err), details: {} } }),
      );
  }

  onMessage(l: (m: HostToMain) => void): void {
    this.messageListeners.push(l);
  }

  onExit(l: (code: number | null, signal: string | null) => void): void {
    this.exitListeners.push(l);
  }

  /** Signals the process outlives (as a host busy freeing GPU memory outlives SIGTERM for a while). */
  readonly ignoredSignals = new Set<NodeJS.Signals>();

  kill(signal?: NodeJS.Signals): void {
    this.kills.push(signal);
    if (!this.ignoredSignals.has(signal ?? 'SIGTERM')) this.crash(null, signal ?? 'SIGTERM');
  }

  /** From now on nothing is answered (calls and pings), as when the host's event loop is blocked. */
  hang(): void {
    this.hung = true;
  }

  /** Answers again, the calls sent while hung first, as a stopped process does on SIGCONT. */
  resume(): void {
    this.hung = false;
    for (const m of this.held.splice(0)) this.answer(m);
  }

  emit(m: HostToMain): void {
    if (this.hung && (m.kind === 'reply' || m.kind === 'accepted')) return;
    this.messageListeners.forEach((l) => l(m));
  }

  crash(code: number | null, signal: string | null): void {
    this.exitListeners.forEach((l) => l(code, signal));
  }
}
