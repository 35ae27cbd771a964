/**
 * Sessions on the C API: opening one (off the main thread) with its input and output names, runs over
 * fresh host values with run options (gpu_graph_id), IoBindings whose buffers persist (capi-binding.ts),
 * the memory ORT expects each input and output in, and cached Identity sessions for device copies.
 * A session that captures its graph runs only through bind().
 */
import path from 'node:path';
import { StudioError } from '../../../../src-shared/errors';
import { buildCopyGraph } from '../../../model-format/copy-graph';
import type { OrtTensor, ProviderName, SessionOptions, StageSession, TensorDtype } from '../runtime';
import { CapiBinding } from './capi-binding';
import type { BoundSessionView, RunSettings } from './capi-session-view';
import { live, type CapiCore } from './capi-core';
import { capturesGraphs, createSessionOptions, withoutCapture } from './capi-session-options';
import { releaseValue, tensorFromValue, valueFromTensor } from './capi-values';
import type { Ptr } from './ort-api';

export class CapiStageSession implements StageSession, BoundSessionView {
  readonly runtime = 'c-api' as const;
  readonly bindings = new Set<CapiBinding>();
  private released = false;

  constructor(
    private readonly core: CapiCore,
    readonly handle: Ptr,
    readonly provider: ProviderName,
    readonly label: string,
    readonly inputNames: readonly string[],
    readonly outputNames: readonly string[],
    /** Graph capture is on (CUDA graphs / WebGPU capture): runs go through bind() only. */
    readonly captures = false,
    /** Opens a copy graph on this session's provider (no capture): device buffers are written through it. */
    private readonly openCopy: (model: Uint8Array) => Promise<CapiStageSession> = () => Promise.reject(new StudioError('unsupported', 'no copy sessions here')),
    /** The device the provider runs on (its device_id). */
    readonly deviceIndex = 0,
  ) {}

  private readonly copiers = new Map<string, Promise<CapiStageSession>>();
  /** The memory info ORT expects for each input and output (owned by the session), once asked. */
  private expectedInfos: { input: Map<string, Ptr>; output: Map<string, Ptr> } | null = null;

  /** Where ORT wants the input or output `name` (null when the core cannot say or has no such name). */
  expectedMemoryInfo(name: string, role: 'input' | 'output'): Ptr {
    if (!this.expectedInfos) {
      const read = (fn: 'SessionGetMemoryInfoForInputs' | 'SessionGetMemoryInfoForOutputs', names: readonly string[]) => {
        const infos: Ptr[] = new Array<Ptr>(names.length).fill(null);
        const status = this.core.api[fn](this.handle, infos, names.length) as Ptr;
        if (status) {
          this.core.api.ReleaseStatus(status);
          return new Map<string, Ptr>();
        }
        return new Map(names.map((n, i) => [n, infos[i]]));
      };
      this.expectedInfos = { input: read('SessionGetMemoryInfoForInputs', this.inputNames), output: read('SessionGetMemoryInfoForOutputs', this.outputNames) };
    }
    return this.expectedInfos[role].get(name) ?? null;
  }

  /** The cached Identity session for one dtype and rank, released with this session. */
  copySession(dtype: TensorDtype, rank: number): Promise<CapiStageSession> {
    const key = `${dtype}/${rank}`;
    let s = this.copiers.get(key);
    if (!s) {
      s = this.openCopy(buildCopyGraph(1, dtype, rank));
      this.copiers.set(key, s);
    }
    return s;
  }

  alive(): void {
    if (this.released) throw new StudioError('internal', `session ${this.label} was released; open it again with createSession`);
  }

  runOptions(settings: RunSettings): Ptr {
    const entries = Object.entries(settings.config ?? {});
    if (settings.gpuGraphId !== undefined) entries.push(['gpu_graph_id', String(settings.gpuGraphId)]);
    if (entries.length === 0) return null;
    const ctx = { action: `setting run options of ${this.label}`, fix: 'check the run config keys' };
    const ro = this.core.out((o) => this.core.api.CreateRunOptions(o), ctx);
    live.runOptions++;
    try {
      for (const [k, v] of entries) this.core.check(this.core.api.AddRunConfigEntry(ro, k, v), ctx);
    } catch (err) {
      this.releaseRunOptions(ro);
      throw err;
    }
    return ro;
  }

  releaseRunOptions(ro: Ptr): void {
    this.core.api.ReleaseRunOptions(ro);
    live.runOptions--;
  }

  async run(feeds: Record<string, OrtTensor>, fetches?: readonly string[], settings: RunSettings = {}): Promise<Record<string, OrtTensor>> {
    this.alive();
    // A captured graph replays fixed addresses; fresh per-run values would be read after they are freed.
    if (this.captures) throw new StudioError('invalid-argument', `${this.label} captures its graph, so it runs only over fixed buffers: use session.bind() (inputs and outputs at the same addresses every run, one gpu_graph_id per shape)`);
    const ctx = { action: `running ${this.label}`, fix: 'check the feed dtypes and shapes against the graph inputs' };
    const names = Object.keys(feeds);
    const outNames = fetches ?? this.outputNames;
    const inputs: Ptr[] = [];
    const outputs: Ptr[] = new Array<Ptr>(outNames.length).fill(null);
    let runOptions: Ptr = null;
    try {
      for (const n of names) inputs.push(valueFromTensor(this.core, feeds[n], { action: `feeding ${n} to ${this.label}`, fix: ctx.fix }));
      runOptions = this.runOptions(settings);
      await this.core.callAsync(this.core.api.Run, [this.handle, runOptions, names, inputs, names.length, outNames, outNames.length, outputs], ctx);
      for (const o of outputs) if (o) live.value++;
      return Object.fromEntries(outNames.map((n, i) => [n, tensorFromValue(this.core, outputs[i])]));
    } finally {
      for (const v of inputs) releaseValue(this.core, v);
      for (const o of outputs) if (o) releaseValue(this.core, o);
      if (runOptions) this.releaseRunOptions(runOptions);
    }
  }

  /** An IoBinding whose buffers persist until it is released (or the session is). */
  bind(): CapiBinding {
    this.alive();
    const binding = this.core.out((o) => this.core.api.CreateIoBinding(this.handle, o), { action: `creating an IoBinding for ${this.label}`, fix: 'report this as a bug' });
    live.ioBinding++;
    const b = new CapiBinding(this.core, this, binding);
    this.bindings.add(b);
    return b;
  }

  async endProfiling(): Promise<string> {
    this.alive();
    const p = this.core.out((o) => this.core.api.SessionEndProfiling(this.handle, this.core.allocator, o), { action: `ending profiling of ${this.label}`, fix: 'enable profiling in the session options' });
    return p ? this.core.takeString(p) : '';
  }

  async release(): Promise<void> {
    if (this.released) return;
    for (const b of [...this.bindings]) b.release();
    for (const c of this.copiers.values()) await c.then((s) => s.release(), () => undefined);
    this.copiers.clear();
    this.released = true;
    this.core.api.ReleaseSession(this.handle);
    live.session--;
  }
}

function sessionNames(core: CapiCore, session: Ptr, label: string): { inputs: string[]; outputs: string[] } {
  const ctx = { action: `reading the inputs and outputs of ${label}`, fix: 'rebuild the model' };
  const read = (count: typeof core.api.SessionGetInputCount, name: typeof core.api.SessionGetInputName) => {
    const n = Number(core.out<number | bigint>((o) => count(session, o), ctx));
    return Array.from({ length: n }, (_, i) => core.takeString(core.out((o) => name(session, i, core.allocator, o), ctx)));
  };
  return { inputs: read(core.api.SessionGetInputCount, core.api.SessionGetInputName), outputs: read(core.api.SessionGetOutputCount, core.api.SessionGetOutputName) };
}

/** Opens a session from a file or bytes; its copy sessions open with the same provider options, capture off. */
export async function openCapiSession(core: CapiCore, model: string | Uint8Array, options: SessionOptions): Promise<CapiStageSession> {
  const label = typeof model === 'string' ? path.basename(model) : `<${model.byteLength}-byte model>`;
  const so = createSessionOptions(core, options);
  let session: Ptr = null;
  try {
    const ctx = { action: `opening ${label} on ${options.provider}`, fix: "rebuild the model with 'studio model build' or pick another provider" };
    const o: [Ptr] = [null];
    if (typeof model === 'string') await core.callAsync(core.api.CreateSession, [core.env, model, so, o], ctx);
    else await core.callAsync(core.api.CreateSessionFromArray, [core.env, model, model.byteLength, so, o], ctx);
    session = o[0];
    live.session++;
    const names = sessionNames(core, session, label);
    const copyOptions = withoutCapture(options);
    const openCopy = (bytes: Uint8Array) => openCapiSession(core, bytes, copyOptions);
    return new CapiStageSession(core, session, options.provider, label, names.inputs, names.outputs, capturesGraphs(options), openCopy, Math.max(0, options.deviceIndex ?? 0));
  } catch (err) {
    if (session) {
      core.api.ReleaseSession(session);
      live.session--;
    }
    throw err;
  } finally {
    core.api.ReleaseSessionOptions(so);
  }
}
