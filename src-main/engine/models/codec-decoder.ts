/**
 * Codec stage over the built codec graph (manifest.graphs.codec, written by the model builder):
 * codes [batch, numQuantizers, T] → PCM [batch, T·samplesPerFrame]. decodeBatch runs windows of equal
 * length as one call; rows of the graph never mix and ORT's conv/matmul kernels give each row the
 * same result as a batch of one on CPU (engine.model.test.ts compares the bytes).
 */
import path from 'node:path';
import type { ModelManifest } from '../../model-builder/manifest';
import { createSession, runSession, tensor, type OrtSession, type SessionOptions } from '../runtime/ort';
import type { CodecStage, CodecWindow } from './stages';

export class OrtCodecDecoder implements CodecStage {
  readonly sampleRateHz: number;
  readonly samplesPerFrame: number;
  /** Rows of every run, for tests and the bench. */
  readonly runBatchSizes: number[] = [];
  private readonly numQuantizers: number;
  private readonly inputName: string;
  private readonly outputName: string;

  constructor(private readonly session: OrtSession, manifest: ModelManifest) {
    this.sampleRateHz = manifest.codec.sampleRateHz;
    this.samplesPerFrame = manifest.codec.samplesPerFrame;
    this.numQuantizers = manifest.codec.numQuantizers;
    this.inputName = manifest.graphs.codec.inputs[0].name;
    this.outputName = manifest.graphs.codec.outputs[0].name;
  }

  async decode(codes: CodecWindow): Promise<Float32Array> {
    return (await this.decodeBatch([codes]))[0];
  }

  async decodeBatch(windows: readonly CodecWindow[]): Promise<Float32Array[]> {
    const batch = windows.length;
    const numFrames = windows[0].length;
    const q = this.numQuantizers;
    const data = new BigInt64Array(batch * q * numFrames); // [B, Q, T]
    windows.forEach((codes, b) => {
      if (codes.length !== numFrames) throw new Error(`codec batch mixes window lengths ${numFrames} and ${codes.length}`);
      codes.forEach((frame, t) => frame.forEach((c, j) => (data[(b * q + j) * numFrames + t] = BigInt(c))));
    });
    this.runBatchSizes.push(batch);
    const out = await runSession(this.session, { [this.inputName]: tensor('int64', data, [batch, q, numFrames]) });
    const pcm = out[this.outputName].data as Float32Array;
    const perRow = numFrames * this.samplesPerFrame;
    return windows.map((_, b) => pcm.slice(b * perRow, (b + 1) * perRow));
  }

  async dispose(): Promise<void> {
    await this.session.release();
  }
}

export async function openCodecDecoder(modelDir: string, manifest: ModelManifest, options: SessionOptions): Promise<OrtCodecDecoder> {
  const session = await createSession(path.join(modelDir, manifest.graphs.codec.file), options);
  return new OrtCodecDecoder(session, manifest);
}
