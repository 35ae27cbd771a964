/**
 * Drives the engine in the host process: steps while there is work, and yields to the event loop
 * between steps so that cancel, new requests and status calls are handled at step boundaries.
 * One loop per engine; kick() after adding work. A failed step is reported, never thrown away.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
const IDLE_POLL_MS = 2;

export interface Steppable {
  hasWork(): boolean;
  step(): Promise<{ kind: string }>;
}

export class EngineLoop {
  private running = false;
  private stopped = false;
  private readonly idleWaiters: (() => void)[] = [];
  /** When the step now awaited began (performance.now()), or null between steps. */
  private stepStartedMs: number | null = null;

  constructor(
    private readonly engine: Steppable,
    private readonly onStepError: (err: unknown) => void,
  ) {}

  /** Starts stepping if not already; returns at once. */
  kick(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    void this.pump();
  }

  /** Resolves when the loop has no work left. */
  whenIdle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stop(): void {
    this.stopped = true;
  }

  /** How long the step now running has run; 0 between steps (the supervisor's stuck-step check). */
  currentStepAgeMs(nowMs = performance.now()): number {
    return this.stepStartedMs === null ? 0 : nowMs - this.stepStartedMs;
  }

  private async pump(): Promise<void> {
    try {
      while (!this.stopped && this.engine.hasWork()) {
        let kind: string;
        this.stepStartedMs = performance.now();
        try {
          kind = (await this.engine.step()).kind;
        } catch (err) {
          this.onStepError(err);
          break;
        } finally {
          this.stepStartedMs = null;
        }
        // Work waiting but nothing admitted (a dynamic-batching hold): wait briefly instead of spinning.
        if (kind === 'idle') await new Promise<void>((resolve) => setTimeout(resolve, IDLE_POLL_MS));
        else await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      this.running = false;
      for (const w of this.idleWaiters.splice(0)) w();
    }
  }
}
