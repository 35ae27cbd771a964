/**
 * The codec's input: codebook indices [batch, numQuantizers, numFrames] as int64 (what the ONNX
 * graph takes), plus the frame-window copy the chunked decoder feeds. Pure data; no models.
 */
import { StudioError } from '../../../src-shared/errors';

export interface CodecCodes {
  /** [batchSize, numQuantizers, numFrames], row-major. */
  data: BigInt64Array;
  batchSize: number;
  numQuantizers: number;
  numFrames: number;
}

/** Wraps plain numbers laid out [batchSize, numQuantizers, numFrames]. */
export function createCodecCodes(values: ArrayLike<number>, batchSize: number, numQuantizers: number, numFrames: number): CodecCodes {
  const numExpected = batchSize * numQuantizers * numFrames;
  if (values.length !== numExpected) {
    throw new StudioError('invalid-argument', `codes hold ${values.length} values but [${batchSize}, ${numQuantizers}, ${numFrames}] needs ${numExpected}; pass matching dims`, { numValues: values.length, numExpected });
  }
  return { data: BigInt64Array.from(Array.from(values, (v) => BigInt(v))), batchSize, numQuantizers, numFrames };
}

/** Frames [startFrame, endFrame) of every batch row and quantizer, as a new CodecCodes. */
export function sliceCodecFrames(codes: CodecCodes, startFrame: number, endFrame: number): CodecCodes {
  if (!(0 <= startFrame && startFrame < endFrame && endFrame <= codes.numFrames)) {
    throw new StudioError('invalid-argument', `frame window [${startFrame}, ${endFrame}) is outside [0, ${codes.numFrames}); pass a non-empty window inside the codes`, { startFrame, endFrame, numFrames: codes.numFrames });
  }
  const numFrames = endFrame - startFrame;
  const numRows = codes.batchSize * codes.numQuantizers;
  const data = new BigInt64Array(numRows * numFrames);
  for (let row = 0; row < numRows; row++) {
    data.set(codes.data.subarray(row * codes.numFrames + startFrame, row * codes.numFrames + endFrame), row * numFrames);
  }
  return { data, batchSize: codes.batchSize, numQuantizers: codes.numQuantizers, numFrames };
}

/** Throws 'invalid-argument' unless there are `numQuantizers` codebooks and every code is in [0, codebookSize). */
export function checkCodecCodes(codes: CodecCodes, numQuantizers: number, codebookSize: number): void {
  if (codes.numQuantizers !== numQuantizers) {
    throw new StudioError('invalid-argument', `codes have ${codes.numQuantizers} codebooks but the codec takes ${numQuantizers}; pass all codebooks of each frame`, { numQuantizers: codes.numQuantizers, numExpected: numQuantizers });
  }
  if (codes.data.length !== codes.batchSize * codes.numQuantizers * codes.numFrames) {
    throw new StudioError('invalid-argument', `codes hold ${codes.data.length} values but their dims need ${codes.batchSize * codes.numQuantizers * codes.numFrames}; fix batchSize/numFrames`, {});
  }
  for (let i = 0; i < codes.data.length; i++) {
    const c = codes.data[i];
    if (c < 0n || c >= BigInt(codebookSize)) {
      throw new StudioError('invalid-argument', `code ${c} at flat index ${i} is outside [0, ${codebookSize}); strip padding (-1) and control tokens before decoding`, { index: i, code: Number(c), codebookSize });
    }
  }
}
