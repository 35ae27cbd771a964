/**
 * Call-shape wrappers for providers whose kernels change a row's result with the call's row count
 * (measured on WebGPU: the loop graph's sampled codes, talker decode rows, a lone 1-frame codec row).
 * Rows go in chunks; a short chunk is filled with copies of its last row, whose results are dropped.
 * BucketedCodePredictor: chunks of exactly bucketRows. BucketedCodec: chunks sized by rows × frames.
 * (The talker chunks its KV groups the same way, in talker.ts.)
 */
import type { CodecStage, CodecStreamRow, CodecWindow, CodePredictorRow, CodePredictorStage } from './stages';

/**
 * Runs `call` once per chunk of `chunkRows` (sizes in order, summing to rows.length), each chunk filled
 * up to `minRows` with copies of its last row (`call` is told how many rows are real); returns the
 * real rows' results in order.
 */
export async function callInChunks<R, O>(rows: readonly R[], chunkRows: readonly number[], minRows: number, call: (chunk: readonly R[], numReal: number) => Promise<O[]>, callSizes?: number[]): Promise<O[]> {
  const out: O[] = [];
  let start = 0;
  for (const numReal of chunkRows) {
    const chunk = rows.slice(start, start + numReal);
    while (chunk.length < minRows) chunk.push(chunk[numReal - 1]);
    callSizes?.push(chunk.length);
    const results = await call(chunk, numReal);
    for (let i = 0; i < Math.min(numReal, results.length); i++) out.push(results[i]);
    start += numReal;
  }
  return out;
}

/** Chunks of exactly bucketRows (the last one short, to be padded). */
export function fixedChunks(numRows: number, bucketRows: number): number[] {
  return Array.from({ length: Math.ceil(numRows / bucketRows) }, (_, i) => Math.min(bucketRows, numRows - i * bucketRows));
}

/**
 * Codec call sizes for numRows windows of numFrames each: as few calls as keep rows × frames within
 * maxRowFrames (0: one call), rows spread evenly (sizes differ by at most one), never fewer than
 * minRows per call where there are enough rows. On the H200 a codec call's time per row-frame tripled
 * above ~160 row-frames, and a lone 1-frame row differed from the same row among others.
 */
export function codecChunks(numRows: number, numFrames: number, minRows: number, maxRowFrames: number): number[] {
  if (numRows === 0) return [];
  const cap = maxRowFrames > 0 ? Math.max(minRows, Math.floor(maxRowFrames / numFrames), 1) : numRows;
  const numCalls = Math.ceil(numRows / cap);
  return Array.from({ length: numCalls }, (_, i) => Math.floor(numRows / numCalls) + (i < numRows % numCalls ? 1 : 0));
}

export class BucketedCodePredictor implements CodePredictorStage {
  /** Row counts of the inner calls, for tests and the bench. */
  readonly callSizes: number[] = [];

  constructor(private readonly inner: CodePredictorStage, readonly bucketRows: number) {}

  predict(rows: readonly CodePredictorRow[]): Promise<number[][]> {
    return callInChunks(rows, fixedChunks(rows.length, this.bucketRows), this.bucketRows, (chunk) => this.inner.predict(chunk), this.callSizes);
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}

/** Both codec entry points split by codecChunks and padded to minRows; a padded stream row repeats a real row (same sequence, so the same state), and its outputs are dropped. */
export class BucketedCodec implements CodecStage {
  readonly callSizes: number[] = [];
  readonly decodeStreamBatch?: CodecStage['decodeStreamBatch'];
  readonly releaseStream?: CodecStage['releaseStream'];

  constructor(private readonly inner: CodecStage, readonly minRows: number, readonly maxRowFrames: number) {
    const stream = inner.decodeStreamBatch?.bind(inner);
    if (stream) this.decodeStreamBatch = (rows: readonly CodecStreamRow[]) => callInChunks(rows, this.chunks(rows.length, rows[0]?.window.length ?? 0), minRows, stream, this.callSizes);
    this.releaseStream = inner.releaseStream?.bind(inner);
  }

  private chunks(numRows: number, numFrames: number): number[] {
    return codecChunks(numRows, numFrames, this.minRows, this.maxRowFrames);
  }

  get sampleRateHz(): number {
    return this.inner.sampleRateHz;
  }

  get samplesPerFrame(): number {
    return this.inner.samplesPerFrame;
  }

  get streaming(): boolean {
    return this.inner.streaming === true;
  }

  async decode(codes: CodecWindow): Promise<Float32Array> {
    return (await this.decodeBatch([codes]))[0];
  }

  decodeBatch(windows: readonly CodecWindow[]): Promise<Float32Array[]> {
    return callInChunks(windows, this.chunks(windows.length, windows[0]?.length ?? 0), this.minRows, (chunk) => this.inner.decodeBatch(chunk), this.callSizes);
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}
