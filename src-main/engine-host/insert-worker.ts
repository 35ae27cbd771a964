/**
 * Entry point of an insert worker thread of the engine host (insert-workers.ts starts them): decodes
 * and resamples <audio> files and joins the turns of requests with inserts, so none of that O(audio)
 * work runs on the host's event loop. One task at a time; errors go back as serialised StudioErrors.
 * Runs in a worker thread of the engine host process (engine-host/; see docs/architecture.md).
 */
import { parentPort } from 'node:worker_threads';
import { toStudioError } from '../../src-shared/errors';
import { decodeInsertAtRate } from './insert-decode';
import { joinTurns } from './join-turns';
import type { InsertTask, InsertTaskReply } from './insert-task';

/** Decoded PCM lives in shared memory: the host caches it and hands it to join tasks without copying. */
const sharedPcm = (numSamples: number): Float32Array => new Float32Array(new SharedArrayBuffer(numSamples * Float32Array.BYTES_PER_ELEMENT));

function run(task: InsertTask): { value: unknown; transfer: ArrayBuffer[] } {
  switch (task.kind) {
    case 'decode':
      return { value: decodeInsertAtRate(task.src, task.bytes, task.layout, task.outputSampleRateHz, sharedPcm), transfer: [] };
    case 'join': {
      const joined = joinTurns(task.request, task.plan, task.turns, task.inserts);
      return { value: joined, transfer: joined.pcm.buffer instanceof ArrayBuffer ? [joined.pcm.buffer] : [] };
    }
  }
}

const port = parentPort;
port?.on('message', (task: InsertTask) => {
  let reply: InsertTaskReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const done = run(task);
    reply = { id: task.id, ok: true, value: done.value };
    transfer = done.transfer;
  } catch (err) {
    reply = { id: task.id, ok: false, error: toStudioError(err).toJSON() };
  }
  port.postMessage(reply, transfer);
});
