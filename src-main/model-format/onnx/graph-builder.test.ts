// Unit tests of the node-saving rules GraphBuilder applies while a graph is written (no ORT): a Cast to a
// value's own type is no node, a value is cast once per type, and with outputsByKernels an output that a
// compute kernel makes is that kernel's own output (no Max copy) unless the kernel reads a graph input.
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from './graph-builder';

interface NodeProto { opType: string; input: string[]; output: string[] }
const nodesOf = (g: GraphBuilder) => (g.toModelObject() as { graph: { node: NodeProto[] } }).graph.node;

describe('GraphBuilder casts', () => {
  it('returns a value unchanged, with no node, when it already has the type asked for', () => {
    const g = new GraphBuilder({ name: 't' });
    const w = g.initializer('w', Float32Array.from([1, 2]), [2], 'float16');
    const x = g.input('x', 'float32', [2]);
    expect(g.cast(w, 'float16')).toBe(w);
    expect(g.cast(x, 'float32')).toBe(x);
    expect(nodesOf(g)).toHaveLength(0);
  });

  it('casts one value to one type once and hands the same Cast output to every later use', () => {
    const g = new GraphBuilder({ name: 't' });
    const x = g.input('x', 'float32', [2]);
    const a = g.cast(x, 'float16');
    expect(g.cast(x, 'float16')).toBe(a);
    expect(g.cast(a, 'float16')).toBe(a);
    expect(g.cast(x, 'int32')).not.toBe(a);
    expect(nodesOf(g).map((n) => n.opType)).toEqual(['Cast', 'Cast']);
  });
});

describe('GraphBuilder outputs written by kernels', () => {
  it('names a compute kernel\'s output after the graph output, and later nodes read the new name', () => {
    const g = new GraphBuilder({ name: 't', outputsByKernels: true });
    const x = g.input('x', 'float32', [2]);
    const y = g.op('Sigmoid', [g.op('Neg', [x])]);
    g.output(y, 'float32', [2], 'y_out');
    g.op('Abs', [y]);
    const nodes = nodesOf(g);
    expect(nodes.map((n) => n.opType)).toEqual(['Neg', 'Sigmoid', 'Abs']);
    expect(nodes[1].output).toEqual(['y_out']);
    expect(nodes[2].input).toEqual(['y_out']);
  });

  it('keeps the exact Max copy where the kernel reads a graph input (a bound buffer it may alias) or only copies', () => {
    const g = new GraphBuilder({ name: 't', outputsByKernels: true });
    const x = g.input('x', 'float32', [2]);
    g.output(g.op('Neg', [x]), 'float32', [2], 'reads_input');
    g.output(g.reshape(g.op('Abs', [g.op('Neg', [x])]), [2]), 'float32', [2], 'copied');
    const ops = nodesOf(g).map((n) => n.opType);
    expect(ops.filter((op) => op === 'Max')).toHaveLength(2);
  });
});
