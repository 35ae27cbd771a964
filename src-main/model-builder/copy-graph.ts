/**
 * A weightless ONNX graph that copies N tensors (x_i → Identity → y_i, any shape). Run on a GPU
 * session whose outputs stay on the host, it downloads device-resident tensors through ORT's own
 * copy instead of Tensor.getData(), which aborted the process on WebGPU in onnxruntime-node 1.30.
 */
import { GraphBuilder, type ElemType } from './onnx/graph-builder';

export const copyInputName = (i: number): string => `x_${i}`;
export const copyOutputName = (i: number): string => `y_${i}`;

/** ONNX bytes of the copy graph for `count` tensors of `elemType` and `rank` dimensions. */
export function buildCopyGraph(count: number, elemType: ElemType, rank: number): Uint8Array {
  const g = new GraphBuilder({ name: 'tensor_copy' });
  for (let i = 0; i < count; i++) {
    const dims = Array.from({ length: rank }, (_, d) => `d${i}_${d}`);
    g.input(copyInputName(i), elemType, dims);
    g.node('Identity', [copyInputName(i)], [copyOutputName(i)]);
    g.output(copyOutputName(i), elemType, dims);
  }
  return g.toBytes();
}
