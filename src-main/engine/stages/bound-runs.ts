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
import { BoundBuckets, hostBytes, type BoundBucketStats, type BoundSetup } from './bound-buckets';
import type { BindableSession } from './graph-sessions';

export interface BoundIo {
  name: string;
  dtype: TensorDtype;
  rank: number;
  /** Bound in host memory, written directly (an input its kernel reads on the host). */
  host?: boolean;
}

export type BoundRunsStats = BoundBucketStats;

interface Bucket {
  graphId: number;
  session: BindableSession;
  bindings: StageBinding[];
  inputs: Record<string, HostTensorData>;
  outputs: Record<string, HostTensorData>;
}

/** Copy bindings first: they bind the step binding's buffers. */
function releaseBucket(b: Bucket): BindableSession[] {
  const [step, upload, download] = b.bindings;
  upload.release();
  download.release();
  step.release();
  return [b.session];
}

export class BoundRuns {
  private constructor(
    private readonly buckets: BoundBuckets<Bucket, 'upload' | 'download'>,
    private readonly inputs: readonly BoundIo[],
    private readonly outputs: readonly BoundIo[],
  ) {}

  static async open(model: string, inputs: readonly BoundIo[], outputs: readonly BoundIo[], setup: BoundSetup): Promise<BoundRuns> {
    const uploaded = inputs.filter((io) => !io.host);
    const buckets = await BoundBuckets.open(model, setup, {
      upload: buildTypedCopyGraph(uploaded.map((io) => io.dtype), uploaded.map((io) => io.rank)),
      download: buildTypedCopyGraph(outputs.map((io) => io.dtype), outputs.map((io) => io.rank)),
    }, releaseBucket);
    return new BoundRuns(buckets, inputs, outputs);
  }

  stats(): BoundRunsStats {
    return this.buckets.stats();
  }

  /** One run in the bucket of these dims (by input and output name): write() fills the inputs' host views; returns the outputs' (valid until the next run). */
  async run(dims: Record<string, readonly number[]>, write: (inputs: Record<string, HostTensorData>) => void): Promise<Record<string, HostTensorData>> {
    const b = await this.bucket(dims);
    write(b.inputs);
    const [step, upload, download] = b.bindings;
    await this.buckets.timed('upload', () => upload.run(), hostBytes(Object.values(b.inputs)));
    await this.buckets.timed('step', () => step.run({ gpuGraphId: b.graphId }));
    await this.buckets.timed('download', () => download.run(), hostBytes(Object.values(b.outputs)));
    this.buckets.ran();
    return b.outputs;
  }

  dispose(): Promise<void> {
    return this.buckets.dispose();
  }

  private bucket(dims: Record<string, readonly number[]>): Promise<Bucket> {
    const key = [...this.inputs, ...this.outputs].map((io) => dims[io.name].join('x')).join(',');
    return this.buckets.bucket(key, (session) => this.openBucket(session, dims));
  }

  private openBucket(session: BindableSession, dims: Record<string, readonly number[]>): Bucket {
    const { copies, location } = this.buckets;
    const [step, upload, download] = [session.bind(), copies.upload.bind(), copies.download.bind()];
    try {
      const inputs: Record<string, HostTensorData> = {};
      let u = 0;
      for (const io of this.inputs) {
        if (io.host) {
          inputs[io.name] = step.input(io.name, io.dtype, dims[io.name], 'cpu').host!;
          continue;
        }
        const bound: StageBuffer = step.input(io.name, io.dtype, dims[io.name], location);
        upload.attach(copyOutputName(u), bound, 'output');
        inputs[io.name] = upload.input(copyInputName(u++), io.dtype, dims[io.name]).host!;
      }
      const outputs: Record<string, HostTensorData> = {};
      this.outputs.forEach((io, i) => {
        download.attach(copyInputName(i), step.output(io.name, io.dtype, dims[io.name], location), 'input');
        outputs[io.name] = download.output(copyOutputName(i), io.dtype, dims[io.name]).host!;
      });
      return { graphId: this.buckets.graphId(), session, bindings: [step, upload, download], inputs, outputs };
    } catch (err) {
      for (const binding of [upload, download, step]) binding.release();
      throw err;
    }
  }
}
