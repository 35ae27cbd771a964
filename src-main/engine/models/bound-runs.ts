/**
 * Runs of a stateless graph over bound buffers (IoBinding), one bucket per shape: a bucket's inputs and
 * outputs keep their addresses across runs and it has its own gpu_graph_id (and its own session where
 * the provider keeps one captured graph per session, graph-sessions.ts), so a session with graph
 * capture on captures each bucket once and replays it. Inputs reach the bound buffers through an upload
 * run and outputs leave through a download run (copy graphs on the same provider, host memory on the
 * other side); inputs a kernel reads on the host (TopK's K) are bound in host memory directly.
 */
import { buildTypedCopyGraph, copyInputName, copyOutputName } from '../../model-format/copy-graph';
import type { HostTensorData, StageBinding, StageBuffer, TensorDtype } from '../runtime/runtime';
import { FIRST_GPU_GRAPH_ID, openBoundStage, type BindableSession, type GraphSessions, type OpenSession } from './graph-sessions';

export interface BoundIo {
  name: string;
  dtype: TensorDtype;
  rank: number;
  /** Bound in host memory, written directly (an input its kernel reads on the host). */
  host?: boolean;
}

export interface BoundRunsStats {
  numRuns: number;
  numBuckets: number;
  /** gpu_graph_id values handed out (one per bucket ever opened; never reused). */
  numGraphIds: number;
  /** Step sessions open (1, or one per bucket where the provider keeps one captured graph per session). */
  numSessions: number;
}

interface Bucket {
  graphId: number;
  session: BindableSession;
  bindings: StageBinding[];
  inputs: Record<string, HostTensorData>;
  outputs: Record<string, HostTensorData>;
}

export class BoundRuns {
  private readonly buckets = new Map<string, Bucket>();
  private nextGraphId = FIRST_GPU_GRAPH_ID;
  private numRuns = 0;

  private constructor(
    private readonly steps: GraphSessions,
    private readonly upload: BindableSession,
    private readonly download: BindableSession,
    private readonly inputs: readonly BoundIo[],
    private readonly outputs: readonly BoundIo[],
    private readonly location: 'cpu' | 'device',
    private readonly maxBuckets: number,
  ) {}

  static async open(model: string, inputs: readonly BoundIo[], outputs: readonly BoundIo[], open: OpenSession, captureOptions: Record<string, string>, location: 'cpu' | 'device', maxBuckets: number, perGraph = false): Promise<BoundRuns> {
    const uploaded = inputs.filter((io) => !io.host);
    const { steps, copies } = await openBoundStage(open, model, captureOptions, perGraph, {
      upload: buildTypedCopyGraph(uploaded.map((io) => io.dtype), uploaded.map((io) => io.rank)),
      download: buildTypedCopyGraph(outputs.map((io) => io.dtype), outputs.map((io) => io.rank)),
    });
    return new BoundRuns(steps, copies.upload, copies.download, inputs, outputs, location, maxBuckets);
  }

  stats(): BoundRunsStats {
    return { numRuns: this.numRuns, numBuckets: this.buckets.size, numGraphIds: this.nextGraphId - FIRST_GPU_GRAPH_ID, numSessions: this.steps.numOpen };
  }

  /** One run in the bucket of these dims (by input and output name): write() fills the inputs' host views; returns the outputs' (valid until the next run). */
  async run(dims: Record<string, readonly number[]>, write: (inputs: Record<string, HostTensorData>) => void): Promise<Record<string, HostTensorData>> {
    const b = await this.bucket(dims);
    write(b.inputs);
    const [step, upload, download] = b.bindings;
    await upload.run();
    await step.run({ gpuGraphId: b.graphId });
    await download.run();
    this.numRuns++;
    return b.outputs;
  }

  async dispose(): Promise<void> {
    for (const b of this.buckets.values()) this.releaseBucket(b);
    this.buckets.clear();
    for (const s of [this.upload, this.download]) await s.release();
    await this.steps.dispose();
  }

  private async bucket(dims: Record<string, readonly number[]>): Promise<Bucket> {
    const key = [...this.inputs, ...this.outputs].map((io) => dims[io.name].join('x')).join(',');
    return lruEntryAsync(this.buckets, key, this.maxBuckets, this.steps, (session) => this.openBucket(session, dims), (old) => this.releaseBucket(old));
  }

  private openBucket(session: BindableSession, dims: Record<string, readonly number[]>): Bucket {
    const [step, upload, download] = [session.bind(), this.upload.bind(), this.download.bind()];
    try {
      const inputs: Record<string, HostTensorData> = {};
      let u = 0;
      for (const io of this.inputs) {
        if (io.host) {
          inputs[io.name] = step.input(io.name, io.dtype, dims[io.name], 'cpu').host!;
          continue;
        }
        const bound: StageBuffer = step.input(io.name, io.dtype, dims[io.name], this.location);
        upload.attach(copyOutputName(u), bound, 'output');
        inputs[io.name] = upload.input(copyInputName(u++), io.dtype, dims[io.name]).host!;
      }
      const outputs: Record<string, HostTensorData> = {};
      this.outputs.forEach((io, i) => {
        download.attach(copyInputName(i), step.output(io.name, io.dtype, dims[io.name], this.location), 'input');
        outputs[io.name] = download.output(copyOutputName(i), io.dtype, dims[io.name]).host!;
      });
      return { graphId: this.nextGraphId++, session, bindings: [step, upload, download], inputs, outputs };
    } catch (err) {
      for (const binding of [upload, download, step]) binding.release();
      throw err;
    }
  }

  /** Copy bindings first: they bind the step binding's buffers. */
  private releaseBucket(b: Bucket): BindableSession[] {
    const [step, upload, download] = b.bindings;
    upload.release();
    download.release();
    step.release();
    return [b.session];
  }
}

/**
 * lruEntry for buckets whose graph ids need sessions (graph-sessions.ts): the sessions are taken before
 * the bucket opens (one per graph id the bucket has) and dropped after an evicted bucket's bindings
 * are released, which returns the sessions it ran in.
 */
export async function lruEntryAsync<T>(
  entries: Map<string, T>, key: string, max: number, sessions: GraphSessions,
  open: (...session: BindableSession[]) => T, release: (old: T) => BindableSession[], graphsPerBucket = 1,
): Promise<T> {
  const found = entries.get(key);
  if (found) return lruEntry(entries, key, max, () => found, () => undefined);
  const taken: BindableSession[] = [];
  for (let i = 0; i < graphsPerBucket; i++) taken.push(await sessions.forGraph());
  const raced = entries.get(key);
  if (raced) {
    for (const s of taken) await sessions.drop(s);
    return lruEntry(entries, key, max, () => raced, () => undefined);
  }
  const dropped: BindableSession[] = [];
  try {
    return lruEntry(entries, key, max, () => Reflect.apply(open, undefined, taken) as T, (old) => {
      for (const s of release(old)) dropped.push(s);
    });
  } catch (err) {
    for (const s of taken) await sessions.drop(s);
    throw err;
  } finally {
    for (const s of dropped) await sessions.drop(s);
  }
}

/** The entry under `key`, made most recently used; opened when absent, after releasing the least recently used past `max`. */
export function lruEntry<T>(entries: Map<string, T>, key: string, max: number, open: () => T, release: (old: T) => void): T {
  const found = entries.get(key);
  if (found) {
    entries.delete(key);
    entries.set(key, found);
    return found;
  }
  while (entries.size >= max) {
    const [oldestKey, oldest] = entries.entries().next().value as [string, T];
    release(oldest);
    entries.delete(oldestKey);
  }
  const opened = open();
  entries.set(key, opened);
  return opened;
}
