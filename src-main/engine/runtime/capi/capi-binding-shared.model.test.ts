// Bound buffers that the captured forms rely on (CPU provider, C-API adapter): one buffer bound as an
// input and an output is updated in place run after run (a KV cache whose past and present share it),
// a buffer of one binding bound in another (upload → step → download) is the same memory, and binding
// a released buffer is a StudioError, not a crash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudioError } from '../../../../src-shared/errors';
import { buildCopyGraph, copyInputName, copyOutputName } from '../../../model-format/copy-graph';
import { GraphBuilder } from '../../../model-format/onnx/graph-builder';
import { openCapiRuntime, type CapiRuntime, type CapiStageSession } from './capi-runtime';

const SLOTS = 6;

/** cache_out = Where(write > 0, row, cache): a row written at one slot, every other slot kept (as the KV write). */
function slotWriteGraph(): Uint8Array {
  const g = new GraphBuilder({ name: 'slot_write' });
  g.input('cache', 'float32', [1, SLOTS]);
  g.input('write', 'float32', [1, SLOTS]);
  g.input('row', 'float32', [1, 1]);
  g.output(g.op('Where', [g.op('Greater', ['write', g.constFloat(0)]), g.mul('row', 'write'), 'cache']), 'float32', [1, SLOTS], 'cache_out');
  return g.toBytes();
}

let capi: CapiRuntime;
let step: CapiStageSession;
let copy: CapiStageSession;

beforeAll(async () => {
  capi = openCapiRuntime();
  step = await capi.createSession(slotWriteGraph(), { provider: 'cpu', intraOpNumThreads: 1 });
  copy = await capi.createSession(buildCopyGraph(1, 'float32', 2), { provider: 'cpu', intraOpNumThreads: 1 });
});

afterAll(async () => {
  await copy?.release();
  await step?.release();
});

describe('shared and attached bound buffers (CPU)', () => {
  it('updates one buffer bound as input and output in place, slot by slot', async () => {
    const binding = step.bind();
    try {
      const cache = binding.shared('cache', 'cache_out', 'float32', [1, SLOTS]);
      const write = binding.input('write', 'float32', [1, SLOTS]).host as Float32Array;
      const row = binding.input('row', 'float32', [1, 1]).host as Float32Array;
      for (let slot = 0; slot < SLOTS; slot++) {
        write.fill(0);
        write[slot] = 1;
        row[0] = 10 + slot;
        await binding.run({ gpuGraphId: 0 });
      }
      expect(Array.from(cache.host as Float32Array)).toEqual([10, 11, 12, 13, 14, 15]);
    } finally {
      binding.release();
    }
  });

  it('binds an upload run\'s output and a download run\'s input to the step\'s own buffers', async () => {
    const [stepB, upload, download] = [step.bind(), copy.bind(), copy.bind()];
    try {
      const cache = stepB.shared('cache', 'cache_out', 'float32', [1, SLOTS]);
      const write = stepB.input('write', 'float32', [1, SLOTS]);
      const row = stepB.input('row', 'float32', [1, 1]);
      const staged = upload.input(copyInputName(0), 'float32', [1, SLOTS]).host as Float32Array;
      upload.attach(copyOutputName(0), cache, 'output');
      download.attach(copyInputName(0), cache, 'input');
      const read = download.output(copyOutputName(0), 'float32', [1, SLOTS]).host as Float32Array;
      staged.set([1, 2, 3, 4, 5, 6]);
      await upload.run();
      (write.host as Float32Array).set([0, 0, 1, 0, 0, 0]);
      (row.host as Float32Array)[0] = -7;
      await stepB.run();
      await download.run();
      expect(Array.from(read)).toEqual([1, 2, -7, 4, 5, 6]);
      upload.release();
      stepB.release();
      expect(() => download.attach(copyInputName(0), cache, 'input')).toThrow(StudioError);
    } finally {
      for (const b of [upload, download, stepB]) b.release();
    }
  });
});
