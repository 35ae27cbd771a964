/**
 * Runs of a stateless graph over bound buffers (IoBinding), one bucket per shape: a bucket's inputs and
 * outputs keep their addresses across runs and it has its own gpu_graph_id, so a session with graph
 * capture on captures each bucket once and replays it. Inputs reach the bound buffers through an upload
 * run and outputs leave through a download run (copy graphs on the same provider, host memory on the
 * other side); inputs a kernel reads on the host (TopK's K) are bound in host memory directly.
 */
import { StudioError } from '../../../src-shared/errors';
import { buildTypedCopyGraph, copyInputName, copyOutputName } from '../../model-builder/copy-graph';
import type { HostTensorData, SessionOptions, StageBinding, StageBuffer, StageSession, TensorDtype } from '../runtime/runtime';

/** Opens a session (the engine's createSession with its provider and options). */
export type OpenSession = (model: string | Uint8Array, options: Partial<SessionOptions>) => Promise<StageSession>;

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
}

interface Bucket {
  graphId: number;
  bindings: StageBinding[];
  inputs: Record<string, HostTensorData>;
  outputs: Record<string, HostTensorData>;
}

/** Opens a session for IoBinding, or says which adapter lacks it. */
export async function openBindable(open: OpenSession, model: string | Uint8Array, options: Partial<SessionOptions>): Promise<StageSession & { bind(): StageBinding }> {
  const session = await open(model, { ...options, ioBinding: true });
  if (!session.bind) {
    await session.release();
    throw new StudioError('unsupported', `the ${session.runtime} ONNX Runtime adapter has no IoBinding; the captured forms need the C-API adapter`);
  }
  return session as StageSession & { bind(): StageBinding };
}

export class BoundRuns {
  private readonly buckets = new Map<string, Bucket>();
  private nextGraphId = 0;
  private numRuns = 0;

  private constructor(
    private readonly session: StageSession & { bind(): StageBinding },
    private readonly upload: StageSession & { bind(): StageBinding },
    private readonly download: StageSession & { bind(): StageBinding },
    private readonly inputs: readonly BoundIo[],
    private readonly outputs: readonly BoundIo[],
    private readonly location: 'cpu' | 'device',
    private readonly maxBuckets: number,
  ) {}

  static async open(model: string, inputs: readonly BoundIo[], outputs: readonly BoundIo[], open: OpenSession, captureOptions: Record<string, string>, location: 'cpu' | 'device', maxBuckets: number): Promise<BoundRuns> {
    const opened: StageSession[] = [];
    try {
      const session = await openBindable(open, model, { providerOptions: captureOptions });
      opened.push(session);
      const uploaded = inputs.filter((io) => !io.host);
      const upload = await openBindable(open, buildTypedCopyGraph(uploaded.map((io) => io.dtype), uploaded.map((io) => io.rank)), { intraOpNumThreads: 1 });
      opened.push(upload);
      const download = await openBindable(open, buildTypedCopyGraph(outputs.map((io) => io.dtype), outputs.map((io) => io.rank)), { intraOpNumThreads: 1 });
      return new BoundRuns(session, upload, download, inputs, outputs, location, maxBuckets);
    } catch (err) {
      for (const s of opened) await s.release();
      throw err;
    }
  }

  stats(): BoundRunsStats {
    return { numRuns: this.numRuns, numBuckets: this.buckets.size, numGraphIds: this.nextGraphId };
  }

  /** One run in the bucket of these dims (by input and output name): write() fills the inputs' host views; returns the outputs' (valid until the next run). */
  async run(dims: Record<string, readonly number[]>, write: (inputs: Record<string, HostTensorData>) => void): Promise<Record<string, HostTensorData>> {
    const b = this.bucket(dims);
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
    for (const s of [this.upload, this.download, this.session]) await s.release();
  }

  private bucket(dims: Record<string, readonly number[]>): Bucket {
    const key = [...this.inputs, ...this.outputs].map((io) => dims[io.name].join('x')).join(',');
    return lruEntry(this.buckets, key, this.maxBuckets, () => this.openBucket(dims), (old) => this.releaseBucket(old));
  }

  private openBucket(dims: Record<string, readonly number[]>): Bucket {
    const [step, upload, download] = [this.session.bind(), this.upload.bind(), this.download.bind()];
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
      return { graphId: this.nextGraphId++, bindings: [step, upload, download], inputs, outputs };
    } catch (err) {
      for (const binding of [upload, download, step]) binding.release();
      throw err;
    }
  }

  /** Copy bindings first: they bind the step binding's buffers. */
  private releaseBucket(b: Bucket): void {
    const [step, upload, download] = b.bindings;
    upload.release();
    download.release();
    step.release();
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
