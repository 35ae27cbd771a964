/**
 * Weightless ONNX graphs over device tensors. The copy graph (x_i → Identity → y_i, any shape), run on
 * a GPU session whose outputs stay on the host, downloads device-resident tensors through ORT's own
 * copy instead of Tensor.getData(), which aborted the process on WebGPU in onnxruntime-node 1.29.0 (the pinned version).
 * The regroup graph builds a talker KV group from resident groups without leaving the device, and
 * the row-gather graph does the same for the streaming codec's carried state.
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

/** ONNX bytes of a copy graph whose tensor i has elemTypes[i] and ranks[i] dimensions. */
export function buildTypedCopyGraph(elemTypes: readonly ElemType[], ranks: readonly number[]): Uint8Array {
  const g = new GraphBuilder({ name: 'typed_tensor_copy' });
  elemTypes.forEach((elemType, i) => {
    const dims = Array.from({ length: ranks[i] }, (_, d) => `d${i}_${d}`);
    g.input(copyInputName(i), elemType, dims);
    g.node('Identity', [copyInputName(i)], [copyOutputName(i)]);
    g.output(copyOutputName(i), elemType, dims);
  });
  return g.toBytes();
}

export const regroupSourceName = (source: number, i: number): string => `s${source}_${i}`;
export const regroupOutputName = (i: number): string => `y_${i}`;
export const REGROUP_ROWS = 'rows';
export const REGROUP_CAPACITY = 'capacity';

/**
 * A weightless ONNX graph that builds a new KV group from `numSources` groups, for `count` tensors
 * [rows, heads, slots, D] each: every source is padded with zeros to `capacity` slots (int64 [1]),
 * the sources are concatenated along rows, and `rows` (int64) picks the new group's rows. Exact copies,
 * so a regrouped past has the bytes the host pool would have staged.
 */
export function buildRegroupGraph(numSources: number, count: number, elemType: ElemType): Uint8Array {
  const g = new GraphBuilder({ name: 'kv_regroup' });
  g.input(REGROUP_ROWS, 'int64', ['new_rows']);
  g.input(REGROUP_CAPACITY, 'int64', [1]);
  for (let s = 0; s < numSources; s++) for (let i = 0; i < count; i++) g.input(regroupSourceName(s, i), elemType, [`rows_${s}`, 'heads', `slots_${s}`, 'head_dim']);
  // Pad's pads [8]: nothing before; after, (capacity − slots of the source) on axis 2; one per source (its tensors share slots)
  const pads = Array.from({ length: numSources }, (_, s) => {
    const extra = g.sub(REGROUP_CAPACITY, g.dim(regroupSourceName(s, 0), 2));
    return g.concat([g.constInt64([0, 0, 0, 0, 0, 0]), extra, g.constInt64([0])], 0);
  });
  for (let i = 0; i < count; i++) {
    const padded = Array.from({ length: numSources }, (_, s) => g.op('Pad', [regroupSourceName(s, i), pads[s]]));
    const all = numSources === 1 ? padded[0] : g.concat(padded, 0);
    g.node('Gather', [all, REGROUP_ROWS], [regroupOutputName(i)], { axis: 0 });
    g.output(regroupOutputName(i), elemType, ['new_rows', 'heads', 'capacity', 'head_dim']);
  }
  return g.toBytes();
}

export const gatherSourceName = (source: number, i: number): string => `g${source}_${i}`;
export const GATHER_ROWS = 'rows';

/**
 * A weightless ONNX graph that builds a batch of row states from `numSources` resident batches, for
 * one tensor [rows, ...rowDims[i]] per entry of `rowDims`: the sources are concatenated along rows,
 * one zero row is appended, and `rows` (int64) picks the new batch's rows, so index = total source rows
 * gives a fresh (all-zero) row; with no sources every row is fresh and nothing is uploaded. The
 * streaming codec's carried state regroups this way on the device.
 */
export function buildRowGatherGraph(numSources: number, rowDims: readonly (readonly number[])[], elemType: ElemType): Uint8Array {
  const g = new GraphBuilder({ name: 'row_gather' });
  g.input(GATHER_ROWS, 'int64', ['new_rows']);
  for (let s = 0; s < numSources; s++) rowDims.forEach((dims, i) => g.input(gatherSourceName(s, i), elemType, [`rows_${s}`, ...dims]));
  rowDims.forEach((dims, i) => {
    const zeroRow = g.op('Expand', [g.constFloat(0, elemType as 'float32' | 'float16'), g.constInt64([1, ...dims])]);
    const all = g.concat([...Array.from({ length: numSources }, (_, s) => gatherSourceName(s, i)), zeroRow], 0);
    g.node('Gather', [all, GATHER_ROWS], [regroupOutputName(i)], { axis: 0 });
    g.output(regroupOutputName(i), elemType, ['new_rows', ...dims]);
  });
  return g.toBytes();
}
