/**
 * Which nodes of a graph ONNX Runtime 1.29's CUDA kernels would feed per-run parameters through pinned
 * host memory (CudaAsyncBuffer) that is released after the run: a captured CUDA graph replays that copy
 * from freed memory, so such a node may read another run's pointers on replay. Pure: rules over the
 * shapes a census saw (shape-census.ts). Staged: MatMul's pointer arrays, Split and Concat unless their
 * parts are equal and at most 32; the other kernels these graphs use pass TArray arguments by value.
 */
import { MAX_BY_VALUE_PARTS } from '../../model-format/onnx/replay-safe-split';
import type { CensusInitializer, CensusNode } from './shape-census';

export interface ReplayFinding { index: number; opType: string; reason: string }

const product = (dims: readonly number[]): number => dims.reduce((a, b) => a * b, 1);

/**
 * MatMul (and FusedMatMul without batch transposes): one GEMM when the right operand is a matrix or the
 * output has one batch, a strided-batched GEMM when the left has rank >= 3 and both operands carry the
 * same batch dims; any other broadcast goes through arrays of pointers staged in pinned memory.
 */
export function matMulStagesPointers(left: readonly number[], right: readonly number[]): boolean {
  if (right.length <= 2 || left.length < 2) return false;
  const leftBatch = left.slice(0, -2);
  const rightBatch = right.slice(0, -2);
  const rank = Math.max(leftBatch.length, rightBatch.length);
  const pad = (b: readonly number[]) => [...Array<number>(rank - b.length).fill(1), ...b];
  const [l, r] = [pad(leftBatch), pad(rightBatch)];
  const outBatch = l.map((d, i) => Math.max(d, r[i]));
  if (product(outBatch) === 1) return false;
  const sameBatch = left.length >= 3 && l.every((d, i) => d === r[i]);
  return !sameBatch;
}

function splitWidths(node: CensusNode, initializers: ReadonlyMap<string, CensusInitializer>): number[] | null {
  const given = node.input[1] ? initializers.get(node.input[1])?.int64s : null;
  if (given) return given.map(Number);
  const attr = node.attribute.find((a) => a.name === 'split');
  if (attr?.ints) return attr.ints.map((v) => (typeof v === 'number' ? v : v.toNumber()));
  return null;
}

/** Each input's length along a Concat's axis, or null where a shape is unknown. */
function concatLengths(node: CensusNode): number[] | null {
  const axisAttr = node.attribute.find((a) => a.name === 'axis');
  const axis = axisAttr?.i === undefined ? 0 : typeof axisAttr.i === 'number' ? axisAttr.i : axisAttr.i.toNumber();
  const lengths: number[] = [];
  for (const shape of node.inputShapes) {
    if (!shape) return null;
    lengths.push(shape[axis < 0 ? shape.length + axis : axis]);
  }
  return lengths;
}

/** The nodes that stage parameters through released pinned memory on CUDA, each with why. */
export function auditCudaReplay(nodes: readonly CensusNode[], initializerList: readonly CensusInitializer[]): ReplayFinding[] {
  const initializers = new Map(initializerList.map((t) => [t.name, t]));
  const findings: ReplayFinding[] = [];
  const flag = (n: CensusNode, reason: string) => findings.push({ index: n.index, opType: n.opType, reason });
  for (const n of nodes) {
    const shapes = n.inputShapes;
    switch (n.opType) {
      case 'MatMul': {
        const [a, b] = shapes;
        if (!a || !b) flag(n, 'input shapes unknown');
        else if (matMulStagesPointers(a, b)) flag(n, `broadcast batched MatMul [${a}] x [${b}] (pointer arrays)`);
        break;
      }
      case 'Split': {
        if (n.output.length > MAX_BY_VALUE_PARTS) flag(n, `${n.output.length} outputs`);
        const widths = splitWidths(n, initializers);
        if (widths && new Set(widths).size > 1) flag(n, `uneven widths ${widths.join(',')}`);
        if (!widths && n.input[1]) flag(n, 'widths computed at run time');
        break;
      }
      case 'Concat': {
        if (n.input.length > MAX_BY_VALUE_PARTS) flag(n, `${n.input.length} inputs`);
        const lengths = concatLengths(n);
        if (!lengths) flag(n, 'input shapes unknown');
        else if (new Set(lengths).size > 1) flag(n, `uneven lengths ${lengths.join(',')} on the axis`);
        break;
      }
    }
  }
  return findings;
}
