/**
 * Codec stage over a built codec graph (written by the model builder): the stateless window graph
 * (manifest.graphs.codec: codes [batch, numQuantizers, T] → PCM [batch, T·samplesPerFrame]) or the
 * streaming graph (manifest.graphs.codecStream: new frames plus each row's carried state). Rows of a
 * call never mix, and ORT's conv/matmul kernels give each row the same result as a batch of one on
 * CPU (engine.model.test.ts compares the bytes). On the streaming graph a plain window is decoded
 * from zero state, which is the same as the window graph's zero padding. The carried state lives in a
 * CodecStateStore (codec-state.ts): on the host, or on the device where the next call reads it.
 */
import path from 'node:path';
import { StudioError } from '../../../src-shared/errors';
import type { GraphSpec, ModelManifest } from '../../model-format/manifest';
import { createSession, runSession, tensor, type OrtSession, type SessionOptions } from '../runtime/ort';
import { PROVIDERS } from '../runtime/providers';
import { HostCodecStateStore, type CodecStateStats, type CodecStateStore, type StateIo } from './codec-state';
import { createDeviceCodecStateStore } from './codec-state-device';
import type { CodecStage, CodecStreamRow, CodecWindow } from './stages';

export class OrtCodecDecoder implements CodecStage {
  readonly sampleRateHz: number;
  readonly samplesPerFrame: number;
  /** Rows of every run, for tests and the bench. */
  readonly runBatchSizes: number[] = [];
  private readonly numQuantizers: number;
  private readonly inputName: string;
  private readonly outputName: string;
  /** The streaming graph's states (input i + 2 pairs with output i + 1); null on the window graph. */
  private readonly states: StateIo[] | null;
  private readonly numCachedName: string | null;
  private readonly stateStore: CodecStateStore | null;

  constructor(private readonly session: OrtSession, manifest: ModelManifest, graph: GraphSpec = manifest.graphs.codec, makeStore: (io: StateIo[]) => CodecStateStore = (io) => new HostCodecStateStore(io)) {
    this.sampleRateHz = manifest.codec.sampleRateHz;
    this.samplesPerFrame = manifest.codec.samplesPerFrame;
    this.numQuantizers = manifest.codec.numQuantizers;
    this.inputName = graph.inputs[0].name;
    this.outputName = graph.outputs[0].name;
    const streaming = graph.inputs.length > 1;
    this.numCachedName = streaming ? graph.inputs[1].name : null;
    this.states = streaming ? graph.inputs.slice(2).map((io, i) => ({ input: io.name, output: graph.outputs[i + 1].name, dims: [Number(io.dims[1]), Number(io.dims[2])] })) : null;
    this.stateStore = this.states ? makeStore(this.states) : null;
  }

  /** Names of the streaming graph's state outputs (kept on the GPU by the device store). */
  static stateOutputNames(graph: GraphSpec): string[] {
    return graph.inputs.length > 1 ? graph.outputs.slice(1).map((o) => o.name) : [];
  }

  stateStats(): CodecStateStats | null {
    return this.stateStore?.stats() ?? null;
  }

  releaseStream(sequenceId: number): void {
    this.stateStore?.release(sequenceId);
  }

  get streaming(): boolean {
    return this.states !== null;
  }

  async decode(codes: CodecWindow): Promise<Float32Array> {
    return (await this.decodeBatch([codes]))[0];
  }

  async decodeBatch(windows: readonly CodecWindow[]): Promise<Float32Array[]> {
    if (this.states) return this.decodeStreamBatch(windows.map((window) => ({ sequenceId: null, window, numDecodedFrames: 0 })));
    const out = await runSession(this.session, { [this.inputName]: this.codesTensor(windows) });
    return this.splitPcm(out[this.outputName].data as Float32Array, windows.length, windows[0].length);
  }

  async decodeStreamBatch(rows: readonly CodecStreamRow[]): Promise<Float32Array[]> {
    const store = this.stateStore;
    if (!store || !this.states || !this.numCachedName) throw new StudioError('internal', 'decodeStreamBatch needs the streaming codec graph (manifest.graphs.codecStream); open it with openCodecDecoder with key codecStream', {});
    const batch = rows.length;
    const stateFeeds = await store.feeds(rows);
    const feeds: Record<string, ReturnType<typeof tensor>> = {
      ...stateFeeds,
      [this.inputName]: this.codesTensor(rows.map((r) => r.window)),
      [this.numCachedName]: tensor('int64', BigInt64Array.from(rows, (r) => BigInt(r.numDecodedFrames)), [batch]),
    };
    const out = await runSession(this.session, feeds, [this.outputName, ...this.states.map((s) => s.output)]);
    store.accept(rows, stateFeeds, out);
    return this.splitPcm(out[this.outputName].data as Float32Array, batch, rows[0].window.length);
  }

  async dispose(): Promise<void> {
    await this.stateStore?.dispose();
    await this.session.release();
  }

  /** Windows of equal length as int64 codes [B, Q, T]. */
  private codesTensor(windows: readonly CodecWindow[]): ReturnType<typeof tensor> {
    const batch = windows.length;
    const numFrames = windows[0].length;
    const q = this.numQuantizers;
    const data = new BigInt64Array(batch * q * numFrames);
    windows.forEach((codes, b) => {
      if (codes.length !== numFrames) throw new Error(`codec batch mixes window lengths ${numFrames} and ${codes.length}`);
      codes.forEach((frame, t) => frame.forEach((c, j) => (data[(b * q + j) * numFrames + t] = BigInt(c))));
    });
    this.runBatchSizes.push(batch);
    return tensor('int64', data, [batch, q, numFrames]);
  }

  private splitPcm(pcm: Float32Array, batch: number, numFrames: number): Float32Array[] {
    const perRow = numFrames * this.samplesPerFrame;
    return Array.from({ length: batch }, (_, b) => pcm.slice(b * perRow, (b + 1) * perRow));
  }
}

/** Opens the window graph or a streaming graph (the plan's codecGraph), a streaming one's state on the host or the device. */
export async function openCodecDecoder(modelDir: string, manifest: ModelManifest, options: SessionOptions, key: 'codec' | 'codecStream' | 'codecStreamMatMul' = 'codec', stateOnDevice = false): Promise<OrtCodecDecoder> {
  const graph = manifest.graphs[key];
  if (!graph) throw new StudioError('model-invalid', `this build has no ${key} graph (builder v14 on); rebuild the model with 'studio model build'`, { field: 'codec.upsample' });
  const gpuOutputs = stateOnDevice && PROVIDERS[options.provider].gpuBufferOutputs ? OrtCodecDecoder.stateOutputNames(graph) : [];
  const session = await createSession(path.join(modelDir, graph.file), gpuOutputs.length > 0 ? { ...options, gpuOutputs } : options);
  return new OrtCodecDecoder(session, manifest, graph, stateOnDevice ? (io) => createDeviceCodecStateStore(io, options.provider) : undefined);
}
