// The bound streaming codec (static graph, ping-pong state sets) on the tiny build, CPU, C-API adapter:
// call for call the same PCM bytes as today's streaming codec while sequences join, leave, swap rows,
// repeat as padded copies and cross buckets (also with one bucket, so buckets are evicted and reopened);
// a bucket skips staging only when its state set holds the same rows; a missing state is a StudioError.
// States stay on the device between calls: a mixed schedule with evictions keeps PCM and newest states
// byte-identical to the plain codec's, and one stream over chunks 1, 2, 4, 8, 8, 8 downloads only PCM;
// 8 streams whose rows join, leave and reorder are gathered on the device (only PCM down, row indices up).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudioError } from '../../../src-shared/errors';
import type { ModelManifest } from '../../model-format/manifest';
import { ensureTinyModel } from '../../model-builder/tiny-model';
import { createSession, type SessionOptions } from '../runtime/ort';
import { BoundCodecStream } from './codec-bound-stream';
import { OrtCodecDecoder, openCodecDecoder } from './codec-decoder';
import { HostCodecStateStore } from './codec-state';
import type { CodecStreamRow, CodecWindow } from './stages';

let builtDir: string;
let manifest: ModelManifest;
let today: OrtCodecDecoder;
/** Bytes of one row's carried states (every state input of the static graph, float32). */
let numStateBytesPerRow: number;

const open = (model: string | Uint8Array, extra: Partial<SessionOptions>) => createSession(model, { provider: 'cpu', intraOpNumThreads: 1, runtime: 'c-api', ...extra });

function window(sequence: number, start: number, numFrames: number): CodecWindow {
  return Array.from({ length: numFrames }, (_, t) => Array.from({ length: 16 }, (_, q) => ((start + t) * 131 + q * 17 + sequence * 977) % 2048));
}

/** Each call: [sequenceId, new frames]; frames decoded so far are tracked per sequence (null: a plain window from zero). */
const SCRIPT: [number | null, number][][] = [
  [[1, 4]],
  [[1, 3], [2, 3]],
  [[1, 3], [2, 3]], // same rows at the next frame counts: no staging
  [[2, 2], [1, 2]], // swapped rows
  [[3, 5], [3, 5], [3, 5]], // a new sequence padded with copies of itself
  [[3, 5], [3, 5], [3, 5]],
  [[1, 2], [null, 2]],
  [[2, 9]], // past the carried window (W − 1 frames)
  [[1, 4]],
];

beforeAll(async () => {
  ({ builtDir } = await ensureTinyModel());
  manifest = JSON.parse(fs.readFileSync(path.join(builtDir, 'manifest.json'), 'utf8')) as ModelManifest;
  today = await openCodecDecoder(builtDir, manifest, { provider: 'cpu', intraOpNumThreads: 1 }, 'codecStream');
  const states = manifest.graphs.codecStreamStatic!.inputs.filter((io) => io.name.startsWith('state_in'));
  numStateBytesPerRow = states.reduce((n, io) => n + 4 * Number(io.dims[1]) * Number(io.dims[2]), 0);
}, 120_000);

afterAll(async () => {
  await today?.dispose();
});

describe('BoundCodecStream (tiny, CPU, C-API adapter)', () => {
  for (const maxBuckets of [16, 1]) {
    it(`gives today's streaming PCM bytes call for call (maxBuckets ${maxBuckets})`, async () => {
      const bound = await BoundCodecStream.open(path.join(builtDir, manifest.graphs.codecStreamStatic!.file), manifest, { open, captureOptions: {}, location: 'cpu', maxBuckets });
      const decoded = new Map<number, number>();
      try {
        for (const [k, call] of SCRIPT.entries()) {
          const rows: CodecStreamRow[] = call.map(([id, n]) => ({ sequenceId: id, window: window(id ?? 0, id === null ? 0 : (decoded.get(id) ?? 0), n), numDecodedFrames: id === null ? 0 : (decoded.get(id) ?? 0) }));
          // today's form keeps its own states, so the sequence ids are offset per maxBuckets run
          const expected = await today.decodeStreamBatch(rows.map((r) => ({ ...r, sequenceId: r.sequenceId === null ? null : r.sequenceId + 100 * maxBuckets })));
          const actual = await bound.decodeStreamBatch(rows);
          actual.forEach((pcm, row) => expect(Buffer.from(pcm.buffer).equals(Buffer.from(expected[row].buffer)), `call ${k} row ${row}`).toBe(true));
          for (const id of new Set(call.map(([id]) => id))) if (id !== null) decoded.set(id, (decoded.get(id) ?? 0) + call.find(([i]) => i === id)![1]);
        }
        const stats = bound.stats();
        expect(stats.numRuns).toBe(SCRIPT.length);
        // calls 3 and 6 read the state set the call before wrote; the rest hold other rows or frame counts
        expect(stats.numRunsStaged).toBe(SCRIPT.length - 2);
        // 5 shapes (rows × frames); with one bucket, every change of shape reopens it (7 opens)
        expect(stats.numBuckets).toBe(maxBuckets === 1 ? 1 : 5);
        expect(stats.numGraphIds).toBe(2 * (maxBuckets === 1 ? 7 : 5));
        expect(stats.numSequences).toBe(3);
        // every kind of native run was timed: inputs, step, outputs, and the stagings counted above
        for (const kind of ['upload', 'step', 'download', 'stage'] as const) expect(stats.msInRuns[kind], kind).toBeGreaterThan(0);
        // host bytes: the step copies nothing; uploads carry the codes and mask, downloads the PCM and states
        expect(stats.bytesInRuns.step).toBe(0);
        for (const kind of ['upload', 'download', 'stage'] as const) expect(stats.bytesInRuns[kind], kind).toBeGreaterThan(0);
        bound.releaseStream(3);
        expect(bound.stats().numSequences).toBe(2);
        const missing = await bound.decodeStreamBatch([{ sequenceId: 3, window: window(3, 10, 1), numDecodedFrames: 10 }]).catch((err: unknown) => err);
        expect(missing).toBeInstanceOf(StudioError);
        expect(String((missing as Error).message)).toMatch(/no state for sequence 3/);
      } finally {
        await bound.dispose();
      }
    });
  }

  it('plain windows decode from zero state and keep nothing, as today', async () => {
    const bound = await BoundCodecStream.open(path.join(builtDir, manifest.graphs.codecStreamStatic!.file), manifest, { open, captureOptions: {}, location: 'cpu', maxBuckets: 4 });
    try {
      const windows = [window(7, 0, 6), window(8, 3, 6)];
      const expected = await today.decodeBatch(windows);
      const actual = await bound.decodeBatch(windows);
      actual.forEach((pcm, row) => expect(Buffer.from(pcm.buffer).equals(Buffer.from(expected[row].buffer))).toBe(true));
      expect(Buffer.from((await bound.decode(windows[1])).buffer).equals(Buffer.from(expected[1].buffer))).toBe(true);
      expect(bound.stats()).toMatchObject({ numRuns: 2, numRunsStaged: 2, numSequences: 0 });
    } finally {
      await bound.dispose();
    }
  });

  /** The plain streaming codec with its host state store in reach (the reference for state bytes). */
  async function openReference(): Promise<{ codec: OrtCodecDecoder; store: () => HostCodecStateStore }> {
    let store: HostCodecStateStore | undefined;
    const graph = manifest.graphs.codecStream!;
    const session = await createSession(path.join(builtDir, graph.file), { provider: 'cpu', intraOpNumThreads: 1 });
    const codec = new OrtCodecDecoder(session, manifest, graph, (io) => (store = new HostCodecStateStore(io)));
    return { codec, store: () => store! };
  }

  /** Chunks of 1, 2, 4, 8 frames then repeats; rows join, leave, swap, pad (with a copy or a plain row) and come back after their buckets were evicted. */
  const MIXED: [number | null, number][][] = [
    [[1, 1]],
    [[1, 2]], // same row, next bucket: copied device to device
    [[1, 4], [2, 4]], // 2 joins
    [[1, 8], [2, 8]], // same rows, next bucket: device to device
    [[1, 8], [2, 8]], // held
    [[2, 1], [3, 1]], // 1 leaves, 3 joins
    [[2, 2], [3, 2]],
    [[3, 4], [2, 4], [4, 4]], // reordered, 4 joins
    [[3, 8], [2, 8], [4, 8]],
    [[1, 1]], // 1 comes back (its last bucket may be gone)
    [[4, 8], [3, 8], [null, 8]], // a plain row pads
    [[1, 2], [1, 2]], // padded with itself
    [[1, 4], [1, 4]],
    [[2, 4], [3, 4]],
    [[5, 1]], // a start: zeros staged into the read set
    [[6, 1]], // another start in that bucket: its zeroed set (the one 5 read) is reused
    [[5, 2]],
    [[6, 2]],
    [[4, 8], [3, 8], [2, 8]],
    [[1, 8], [5, 8]],
  ];

  for (const maxBuckets of [16, 3, 1]) {
    it(`keeps PCM and every newest state byte-identical to the plain streaming codec over a mixed schedule (maxBuckets ${maxBuckets})`, async () => {
      const bound = await BoundCodecStream.open(path.join(builtDir, manifest.graphs.codecStreamStatic!.file), manifest, { open, captureOptions: {}, location: 'cpu', maxBuckets });
      const reference = await openReference();
      const decoded = new Map<number, number>();
      try {
        for (const [k, call] of MIXED.entries()) {
          const rows: CodecStreamRow[] = call.map(([id, n]) => ({ sequenceId: id, window: window(id ?? 0, id === null ? 0 : (decoded.get(id) ?? 0), n), numDecodedFrames: id === null ? 0 : (decoded.get(id) ?? 0) }));
          const expected = await reference.codec.decodeStreamBatch(rows);
          const actual = await bound.decodeStreamBatch(rows);
          actual.forEach((pcm, row) => expect(Buffer.from(pcm.buffer).equals(Buffer.from(expected[row].buffer)), `call ${k} row ${row}`).toBe(true));
          for (const id of new Set(call.map(([id]) => id))) if (id !== null) decoded.set(id, (decoded.get(id) ?? 0) + call.find(([i]) => i === id)![1]);
        }
        expect(bound.stats().numSequences).toBe(6);
        for (const id of [1, 2, 3, 4, 5, 6]) {
          const expected = Object.values(await reference.store().feeds([{ sequenceId: id, numDecodedFrames: decoded.get(id)! }])).map((t) => t.data as Float32Array);
          const actual = (await bound.hostState(id))!;
          expect(actual.length, `sequence ${id}`).toBe(expected.length);
          actual.forEach((state, i) => expect(Buffer.from(state.buffer, state.byteOffset, state.byteLength).equals(Buffer.from(expected[i].buffer)), `sequence ${id} state ${i}`).toBe(true));
        }
        bound.releaseStream(5);
        expect(await bound.hostState(5)).toBeUndefined();
        expect(bound.stats().numSequences).toBe(5);
      } finally {
        await bound.dispose();
        await reference.codec.dispose();
      }
      expect(bound.stats().numSequences).toBe(0);
    });
  }

  /**
   * Eight streams, rows changing every call or two as in a closed loop; each call says how its read set
   * is filled: zeros staged, a whole set copied, rows gathered on the device, or held. `release` ends streams first.
   */
  const EIGHT: { rows: (number | null)[]; frames: number; fill: 'zeros' | 'copy' | 'gather' | 'hold'; release?: number[] }[] = [
    { rows: [1, 2, 3, 4, 5, 6, 7, 8], frames: 1, fill: 'zeros' },
    { rows: [1, 2, 3, 4, 5, 6, 7, 8], frames: 2, fill: 'copy' }, // same rows, next bucket
    { rows: [8, 7, 6, 5, 4, 3, 2, 1], frames: 2, fill: 'gather' }, // reordered: gathered from the bucket's own set into its other set
    { rows: [9, 7, 6, 5, 4, 3, 2, 1], frames: 2, fill: 'gather', release: [8] }, // 8 leaves, 9 joins (a zero row)
    { rows: [7, 6, 5, 4, 3, 2, 1], frames: 4, fill: 'gather' }, // the engine splits by window length: 7 rows into another bucket...
    { rows: [9], frames: 2, fill: 'gather' }, // ...and 9 alone
    { rows: [1, 9, 2, 3, 4, 5, 6, 7], frames: 4, fill: 'gather' }, // merged again: two sources
    { rows: [2, 9, 1, 10, 4, 5, 6, 7], frames: 4, fill: 'gather', release: [3] }, // 3 leaves, 10 joins, 1 and 2 swap
    { rows: [2, 9, 1, 10, 4, 5, 6, 7], frames: 4, fill: 'hold' },
    { rows: [2, 9, 1, 10, 4, 5, 6, 7], frames: 8, fill: 'copy' },
    { rows: [11, 7, 6, 5, 4, 10, 1, 9], frames: 8, fill: 'gather', release: [2] },
    { rows: [7, 6, 5, 4, 10, 1, 9], frames: 8, fill: 'gather' }, // 11 sits one out
    { rows: [11, 7, 6, 5, 4, 10, 1, 9], frames: 8, fill: 'gather' }, // and is back: from the target bucket's set and another
    { rows: [5, null, 9, 9], frames: 1, fill: 'gather' }, // a plain row and a padded copy
  ];

  for (const maxBuckets of [16, 2]) {
    it(`gathers changed rows of 8 streams on the device: PCM and states byte-identical, only PCM downloaded (maxBuckets ${maxBuckets})`, async () => {
      const bound = await BoundCodecStream.open(path.join(builtDir, manifest.graphs.codecStreamStatic!.file), manifest, { open, captureOptions: {}, location: 'cpu', maxBuckets });
      const reference = await openReference();
      const decoded = new Map<number, number>();
      try {
        for (const [k, call] of EIGHT.entries()) {
          for (const id of call.release ?? []) bound.releaseStream(id);
          const rows: CodecStreamRow[] = call.rows.map((id) => ({ sequenceId: id, window: window(id ?? 0, id === null ? 0 : (decoded.get(id) ?? 0), call.frames), numDecodedFrames: id === null ? 0 : (decoded.get(id) ?? 0) }));
          const expected = await reference.codec.decodeStreamBatch(rows);
          const actual = await bound.decodeStreamBatch(rows);
          actual.forEach((pcm, row) => expect(Buffer.from(pcm.buffer).equals(Buffer.from(expected[row].buffer)), `call ${k} row ${row}`).toBe(true));
          for (const id of new Set(call.rows)) if (id !== null) decoded.set(id, (decoded.get(id) ?? 0) + call.frames);
        }
        const stats = bound.stats();
        if (maxBuckets === 16) {
          // PCM of every row (padded and plain ones too); no state leaves the device (at 8c9d881 each gather was a download + staging of the rows' states)
          const numRowFrames = EIGHT.reduce((n, c) => n + c.rows.length * c.frames, 0);
          expect(stats.bytesInRuns.download).toBe(numRowFrames * manifest.codec.samplesPerFrame * 4);
          // staged: the first call's 8 rows of zeros (zeroing on the device was reverted: see prepare()), then only the
          // gathers' int64 row indices
          const gathered = EIGHT.filter((c) => c.fill === 'gather');
          expect(stats.bytesInRuns.stage).toBe(8 * numStateBytesPerRow + 8 * gathered.reduce((n, c) => n + c.rows.length, 0));
          expect(stats.numRunsStaged).toBe(EIGHT.filter((c) => c.fill !== 'hold').length);
        }
        expect(stats.numRuns).toBe(EIGHT.length);
        for (const id of [1, 4, 5, 6, 7, 9, 10, 11]) {
          const expected = Object.values(await reference.store().feeds([{ sequenceId: id, numDecodedFrames: decoded.get(id)! }])).map((t) => t.data as Float32Array);
          const actual = (await bound.hostState(id))!;
          actual.forEach((state, i) => expect(Buffer.from(state.buffer, state.byteOffset, state.byteLength).equals(Buffer.from(expected[i].buffer)), `sequence ${id} state ${i}`).toBe(true));
        }
      } finally {
        await bound.dispose();
        await reference.codec.dispose();
      }
    });
  }

  it('downloads only the PCM and stages only the first call\'s zeros for one stream over chunks 1, 2, 4, 8, 8, 8', async () => {
    const bound = await BoundCodecStream.open(path.join(builtDir, manifest.graphs.codecStreamStatic!.file), manifest, { open, captureOptions: {}, location: 'cpu', maxBuckets: 16 });
    const reference = await openReference();
    const chunks = [1, 2, 4, 8, 8, 8];
    try {
      let numDecodedFrames = 0;
      for (const n of chunks) {
        const rows: CodecStreamRow[] = [{ sequenceId: 1, window: window(1, numDecodedFrames, n), numDecodedFrames }];
        const [expected] = await reference.codec.decodeStreamBatch(rows);
        const [actual] = await bound.decodeStreamBatch(rows);
        expect(Buffer.from(actual.buffer).equals(Buffer.from(expected.buffer)), `after ${numDecodedFrames} frames`).toBe(true);
        numDecodedFrames += n;
      }
      const stats = bound.stats();
      // PCM: (1 + 2 + 4 + 8 + 8 + 8) = 31 frames × 1920 samples × 4 bytes = 238,080; no state leaves the device
      // (today: + 6 calls × the state bytes of a row, 13 MB a call on the 0.6B model)
      expect(stats.bytesInRuns.download).toBe(31 * manifest.codec.samplesPerFrame * 4);
      // the first call stages one row of zeros from the host; 2, 4, 8 frames copy the set device to device (0 host bytes),
      // the last two hold their rows
      expect(stats.bytesInRuns.stage).toBe(numStateBytesPerRow);
      expect(stats.numRunsStaged).toBe(4);
      expect(stats.numRuns).toBe(6);
    } finally {
      await bound.dispose();
      await reference.codec.dispose();
    }
  });
});
