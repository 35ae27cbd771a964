/**
 * BucketedCodePredictor: wraps a code-predictor stage so that every call it makes has exactly
 * bucketRows rows. Rows are taken in chunks of bucketRows; a short chunk is filled with copies of its
 * last row, whose results are dropped. On WebGPU the loop graph's sampled codes changed with the row
 * count (not with the mates), so a fixed shape keeps a row's codes independent of its batch.
 */
import type { CodePredictorRow, CodePredictorStage } from './stages';

export class BucketedCodePredictor implements CodePredictorStage {
  /** Row counts of the inner calls, for tests and the bench. */
  readonly callSizes: number[] = [];

  constructor(private readonly inner: CodePredictorStage, readonly bucketRows: number) {}

  async predict(rows: readonly CodePredictorRow[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let start = 0; start < rows.length; start += this.bucketRows) {
      const chunk = rows.slice(start, start + this.bucketRows);
      const numReal = chunk.length;
      while (chunk.length < this.bucketRows) chunk.push(chunk[numReal - 1]);
      this.callSizes.push(chunk.length);
      const codes = await this.inner.predict(chunk);
      out.push(...codes.slice(0, numReal));
    }
    return out;
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}
