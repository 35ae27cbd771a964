/**
 * The sessions a stage's bound graphs run in. Where the provider keeps many captured graphs per session
 * (CUDA graphs: one per gpu_graph_id) every graph id runs in one session; where it keeps one (WebGPU in
 * ORT 1.29: one captured command list per session, its gpu_graph_id only turning capture off at -1),
 * each graph id gets a session of its own, opened when its bucket opens and released with it. Where an
 * uncaptured stage's kernels keep one plan per node for the last shape (cuDNN Conv), each bucket gets one.
 */
import { StudioError } from '../../../src-shared/errors';
import type { SessionOptions, StageBinding, StageSession } from '../runtime/runtime';

export type BindableSession = StageSession & { bind(): StageBinding };

/** Opens a session (the engine's createSession with its provider and options). */
export type OpenSession = (model: string | Uint8Array, options: Partial<SessionOptions>) => Promise<StageSession>;

/** Opens a session for IoBinding, or says which adapter lacks it. */
export async function openBindable(open: OpenSession, model: string | Uint8Array, options: Partial<SessionOptions>): Promise<BindableSession> {
  const session = await open(model, { ...options, ioBinding: true });
  if (!session.bind) {
    await session.release();
    throw new StudioError('unsupported', `the ${session.runtime} ONNX Runtime adapter has no IoBinding; the captured forms need the C-API adapter`);
  }
  return session as BindableSession;
}

/**
 * The first gpu_graph_id a bound stage hands out. ORT reserves 0 for its own use (the id a run without one
 * gets: onnxruntime_run_options_config_keys.h), so ids start at 1.
 */
export const FIRST_GPU_GRAPH_ID = 1;

/** Which graph ids share a session: all of them, each bucket's, or none. */
export type SessionSharing = 'shared' | 'bucket' | 'graph';

export class GraphSessions {
  /** Opened and not yet given to a graph id or bucket, or the one session of every graph id ('shared'). */
  private idle: BindableSession | null;
  private readonly open = new Set<BindableSession>();

  private constructor(
    private readonly openOne: () => Promise<BindableSession>,
    first: BindableSession,
    readonly sharing: SessionSharing,
  ) {
    this.idle = first;
    this.open.add(first);
  }

  /**
   * Opens the first session (so a model that cannot load fails here); 'graph' when capture is on and the
   * provider keeps one graph per session (engine-plan.ts capturePerGraph), 'bucket' for the plan's sessionPerBucket.
   */
  static async open(open: OpenSession, model: string, captureOptions: Record<string, string>, sharing: SessionSharing): Promise<GraphSessions> {
    const openOne = () => openBindable(open, model, { providerOptions: captureOptions });
    return new GraphSessions(openOne, await openOne(), sharing);
  }

  /** The sessions of a new bucket's graph ids: the shared one, one of its own for all, or one each. */
  async forBucket(numGraphIds: number): Promise<BindableSession[]> {
    if (this.sharing === 'bucket') return Array<BindableSession>(numGraphIds).fill(await this.take());
    const taken: BindableSession[] = [];
    for (let i = 0; i < numGraphIds; i++) taken.push(await this.forGraph());
    return taken;
  }

  /** Sessions open now (tests and stats). */
  get numOpen(): number {
    return this.open.size;
  }

  /** The session a new graph id runs in. */
  async forGraph(): Promise<BindableSession> {
    return this.sharing === 'shared' ? this.idle! : this.take();
  }

  /** The idle session, or a new one. */
  private async take(): Promise<BindableSession> {
    if (this.idle) {
      const first = this.idle;
      this.idle = null;
      return first;
    }
    const session = await this.openOne();
    this.open.add(session);
    return session;
  }

  /** A graph id is gone (its bindings released first): its own session closes; the shared one stays. */
  async drop(session: BindableSession): Promise<void> {
    if (this.sharing === 'shared' || !this.open.has(session)) return;
    this.open.delete(session);
    await session.release();
  }

  async dispose(): Promise<void> {
    for (const s of this.open) await s.release();
    this.open.clear();
    this.idle = null;
  }
}
