/**
 * One shape bucket (rows, frames) of the bound streaming codec (codec-bound-stream.ts): its fixed buffers
 * and the bindings over them: the two step bindings (ping-pong state sets), the host-written inputs' upload,
 * the carry joins' upload, staging host → each state set, the PCM download and each state set's download.
 * Opening and releasing only; which set a run reads and what it holds is the stream's business, and the
 * device-to-device moves into a set (codec-bound-moves.ts) keep their bindings here until either side goes.
 */
import { copyInputName, copyOutputName } from '../../model-format/copy-graph';
import {
  CODEC_GRAPH_INPUT, CODEC_GRAPH_OUTPUT, CODEC_STATIC_ATTENTION_BIAS, CODEC_STATIC_JOIN_PREFIX, CODEC_STATIC_KEY_POSITIONS, CODEC_STATIC_QUERY_POSITIONS,
  joinLength, writeJoinInputs,
} from '../../model-format/codec/codec-stream-io';
import type { GraphSpec } from '../../model-format/manifest';
import type { BufferLocation, StageBinding, StageBuffer, StageSession } from '../runtime/runtime';
import type { BindableSession } from './graph-sessions';
import type { StateIo } from './codec-state';

export interface CodecBucket {
  rows: number;
  frames: number;
  /** step[p] reads states[p] and writes states[1 − p], with graph id graphIds[p]. */
  step: [StageBinding, StageBinding];
  /** The sessions step[0] and step[1] run in (the same one unless the provider keeps one captured graph per session). */
  sessions: [BindableSession, BindableSession];
  graphIds: [number, number];
  states: [StageBuffer[], StageBuffer[]];
  upload: StageBinding;
  /** Copies the carry joins' index and keep inputs in (null: the graph has none); run before the bucket's first step. */
  joinUpload: StageBinding | null;
  joinsReady: boolean;
  /** stage[p] copies stageViews[p] (host) into states[p]. */
  stage: [StageBinding, StageBinding];
  stageViews: [Float32Array[], Float32Array[]];
  /** Copies the PCM out after either step (both bind the same PCM buffer). */
  pcmDownload: StageBinding;
  pcm: Float32Array;
  /** stateDownload[p] copies states[p] out into stateViews[p] (host), only when a sequence's state must leave the device. */
  stateDownload: [StageBinding, StageBinding];
  stateViews: [Float32Array[], Float32Array[]];
  codes: Int32Array;
  mask: Float32Array;
  /** Empty on fused builds (no position inputs). */
  queryPositions: BigInt64Array;
  keyPositions: BigInt64Array;
  /** The set the next run reads. */
  parity: 0 | 1;
  /** Which rows at which frame counts states[parity] holds ('' when stale). */
  holds: string;
  /** Whether states[p] holds zeros in every row (staged so, and not written since). */
  zeroed: [boolean, boolean];
  /** Set when BoundBuckets' LRU released it: its buffers are gone. */
  released: boolean;
  /** Cached device-to-device moves into this bucket's sets, by sources and target set (codec-bound-moves.ts). */
  moves: Map<string, CachedMove>;
  /** Bindings of other sessions that bind this bucket's buffers (moves in or out): released before its own. */
  linked: Set<StageBinding>;
}

/** A move binding kept for reuse while every bucket it binds is open; `index` is the gather's host-written rows (null: a whole-set copy). */
export interface CachedMove {
  binding: StageBinding;
  buckets: readonly CodecBucket[];
  index: BigInt64Array | null;
}

/** What opening a bucket needs from the stream. */
export interface CodecBucketContext {
  copies: Record<'upload' | 'stage' | 'download' | 'joins', BindableSession>;
  location: BufferLocation;
  io: readonly StateIo[];
  joins: readonly JoinIo[];
  numQuantizers: number;
  numCarried: number;
  hasPositions: boolean;
  samplesPerFrame: number;
  graphId: () => number;
}

const STEP_INPUTS = [CODEC_GRAPH_INPUT, CODEC_STATIC_ATTENTION_BIAS, CODEC_STATIC_QUERY_POSITIONS, CODEC_STATIC_KEY_POSITIONS] as const;
export const STEP_TYPES = ['int32', 'float32', 'int64', 'int64'] as const;
export const STEP_RANKS = [3, 5, 2, 2];
/** The host-written inputs a build has: codes and mask, plus the RoPE positions on portable-ops builds. */
export const numStepInputs = (spec: GraphSpec): number => (spec.inputs.some((i) => i.name === CODEC_STATIC_QUERY_POSITIONS) ? 4 : 2);

/** Move and copy bindings first: they bind the step bindings' buffers. Marks the bucket released. */
export function releaseCodecBucket(b: CodecBucket): BindableSession[] {
  b.released = true;
  for (const binding of b.linked) binding.release();
  b.linked.clear();
  b.moves.clear();
  for (const binding of [b.upload, ...(b.joinUpload ? [b.joinUpload] : []), ...b.stage, b.pcmDownload, ...b.stateDownload, b.step[1], b.step[0]]) binding.release();
  return b.sessions;
}

export function openCodecBucket(c: CodecBucketContext, sessions: [BindableSession, BindableSession], rows: number, frames: number): CodecBucket {
  const at = c.location;
  const bindings: StageBinding[] = [];
  const bind = (session: StageSession) => {
    const binding = session.bind!();
    bindings.push(binding);
    return binding;
  };
  try {
    const step: [StageBinding, StageBinding] = [bind(sessions[0]), bind(sessions[1])];
    const upload = bind(c.copies.upload);
    const numKeys = frames + c.numCarried;
    const stepDims = [[rows, c.numQuantizers, frames], [rows, 1, 1, frames, numKeys], [1, frames], [1, numKeys]];
    const hostIn = STEP_INPUTS.slice(0, c.hasPositions ? 4 : 2).map((name, i) => {
      const onDevice = step[0].input(name, STEP_TYPES[i], stepDims[i], at);
      step[1].attach(name, onDevice, 'input');
      upload.attach(copyOutputName(i), onDevice, 'output');
      return upload.input(copyInputName(i), STEP_TYPES[i], stepDims[i]).host!;
    });
    const joinUpload = bindJoins(c, step, bind, frames);
    const pcmDims = [rows, frames * c.samplesPerFrame];
    const pcmBuffer = step[0].output(CODEC_GRAPH_OUTPUT, 'float32', pcmDims, at);
    step[1].attach(CODEC_GRAPH_OUTPUT, pcmBuffer, 'output');
    const pcmDownload = bind(c.copies.download);
    pcmDownload.attach(copyInputName(0), pcmBuffer, 'input');
    const pcm = pcmDownload.output(copyOutputName(0), 'float32', pcmDims).host as Float32Array;
    const setA: StageBuffer[] = [];
    const setB: StageBuffer[] = [];
    c.io.forEach((s) => {
      const dims = [rows, ...s.dims];
      const a = step[0].input(s.input, 'float32', dims, at);
      const b = step[0].output(s.output, 'float32', dims, at);
      step[1].attach(s.input, b, 'input');
      step[1].attach(s.output, a, 'output');
      setA.push(a);
      setB.push(b);
    });
    const states: [StageBuffer[], StageBuffer[]] = [setA, setB];
    // staging and state downloads run the same N-tensor copy graph, host → device and device → host
    const stage: [StageBinding, StageBinding] = [bind(c.copies.stage), bind(c.copies.stage)];
    const stateDownload: [StageBinding, StageBinding] = [bind(c.copies.stage), bind(c.copies.stage)];
    const views = (p: 0 | 1) => c.io.map((s, i) => {
      const dims = [rows, ...s.dims];
      stage[p].attach(copyOutputName(i), states[p][i], 'output');
      stateDownload[p].attach(copyInputName(i), states[p][i], 'input');
      return [stage[p].input(copyInputName(i), 'float32', dims).host as Float32Array, stateDownload[p].output(copyOutputName(i), 'float32', dims).host as Float32Array];
    });
    const [views0, views1] = [views(0), views(1)];
    const graphIds: [number, number] = [c.graphId(), c.graphId()];
    const [codes, mask, queryPositions, keyPositions] = hostIn;
    return {
      rows, frames, step, sessions, graphIds, states, upload, joinUpload, joinsReady: false,
      stage, stageViews: [views0.map((v) => v[0]), views1.map((v) => v[0])], pcmDownload, pcm,
      stateDownload, stateViews: [views0.map((v) => v[1]), views1.map((v) => v[1])],
      codes: codes as Int32Array, mask: mask as Float32Array,
      queryPositions: (queryPositions as BigInt64Array | undefined) ?? new BigInt64Array(0), keyPositions: (keyPositions as BigInt64Array | undefined) ?? new BigInt64Array(0),
      parity: 0, holds: '', zeroed: [false, false], released: false, moves: new Map(), linked: new Set(),
    };
  } catch (err) {
    for (const binding of bindings.reverse()) binding.release();
    throw err;
  }
}

/** Binds the carry joins' inputs of both step bindings at `frames` and writes their host side; null when the graph has none. */
function bindJoins(c: CodecBucketContext, step: [StageBinding, StageBinding], bind: (session: StageSession) => StageBinding, frames: number): StageBinding | null {
  if (c.joins.length === 0) return null;
  const upload = bind(c.copies.joins);
  c.joins.forEach((j, k) => {
    const { length, numState } = joinLength(j.index.dims[0], frames);
    const views = ([[j.index, 'int32'], [j.keep, 'float32']] as const).map(([io, type], m) => {
      const dims = joinDims(io.dims, length);
      const onDevice = step[0].input(io.name, type, dims, c.location);
      step[1].attach(io.name, onDevice, 'input');
      upload.attach(copyOutputName(2 * k + m), onDevice, 'output');
      return upload.input(copyInputName(2 * k + m), type, dims).host!;
    });
    writeJoinInputs(views[0] as Int32Array, views[1] as Float32Array, numState);
  });
  return upload;
}

/** The static graph's states (state input i after the host-written ones pairs with output i + 1). */
export function stateIo(spec: GraphSpec): StateIo[] {
  const states = spec.inputs.slice(numStepInputs(spec)).filter((io) => !io.name.startsWith(CODEC_STATIC_JOIN_PREFIX));
  return states.map((io, i) => ({ input: io.name, output: spec.outputs[i + 1].name, dims: [Number(io.dims[1]), Number(io.dims[2])] }));
}

/** One carry join's host inputs: the index and keep inputs (as the manifest lists them, index first). */
export interface JoinIo {
  index: { name: string; dims: readonly (string | number)[] };
  keep: { name: string; dims: readonly (string | number)[] };
}

export function joinIo(spec: GraphSpec): JoinIo[] {
  const joins = spec.inputs.filter((io) => io.name.startsWith(CODEC_STATIC_JOIN_PREFIX));
  const pairs: JoinIo[] = [];
  for (let i = 0; i + 1 < joins.length; i += 2) pairs.push({ index: joins[i], keep: joins[i + 1] });
  return pairs;
}

/** The dims of a join input at `frames`: its symbolic length replaced by the number. */
const joinDims = (dims: readonly (string | number)[], length: number): number[] => dims.map((d) => (typeof d === 'number' ? d : length));

