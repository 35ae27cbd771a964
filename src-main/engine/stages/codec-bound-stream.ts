/**
 * The streaming codec on its capture-ready graph (codec_decoder_stream_static.onnx) through IoBinding.
 * A bucket per (rows, frames) owns fixed buffers: codes, mask and RoPE positions (written by the host),
 * PCM, and two sets of state buffers used in turn (ping-pong: a run reads one set and writes the other,
 * as writing a state in place is not safe), so a bucket has two bindings and two gpu_graph_ids. The
 * host keeps every sequence's newest state as the record: a bucket's read set is staged from it only
 * when the set does not already hold these rows at these frame counts. The carry joins' index and keep
 * inputs depend on the frame count only: written once when a bucket opens, before its first run.
 */
import { StudioError } from '../../../src-shared/errors';
import { buildCopyGraph, buildTypedCopyGraph, copyInputName, copyOutputName } from '../../model-format/copy-graph';
import {
  CODEC_GRAPH_INPUT, CODEC_GRAPH_OUTPUT, CODEC_STATIC_ATTENTION_BIAS, CODEC_STATIC_JOIN_PREFIX, CODEC_STATIC_KEY_POSITIONS, CODEC_STATIC_QUERY_POSITIONS,
  joinLength, writeJoinInputs, writeStreamStaticMask, writeStreamStaticPositions,
} from '../../model-format/codec/codec-stream-io';
import type { GraphSpec, ModelManifest } from '../../model-format/manifest';
import type { StageBinding, StageBuffer, StageSession } from '../runtime/runtime';
import { BoundBuckets, hostBytes, type BoundBucketStats, type BoundSetup } from './bound-buckets';
import type { BindableSession } from './graph-sessions';
import { missingState, rowsPerState, type StateIo } from './codec-state';
import type { CodecStage, CodecStreamRow, CodecWindow } from './stages';

/**
 * numRunsStaged: runs whose read set was staged from the host record (other rows or frame counts, or a
 * first call); numGraphIds counts two per bucket (one per state set).
 */
export interface BoundCodecStats extends BoundBucketStats {
  /** Sequences whose state the host record keeps. */
  numSequences: number;
}

interface Bucket {
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
  /** stage[p] copies the host record into states[p]. */
  stage: [StageBinding, StageBinding];
  stageViews: [Float32Array[], Float32Array[]];
  /** download[p] copies PCM and states[1 − p] out after step[p]. */
  download: [StageBinding, StageBinding];
  codes: Int32Array;
  mask: Float32Array;
  /** Empty on fused builds (no position inputs). */
  queryPositions: BigInt64Array;
  keyPositions: BigInt64Array;
  pcm: [Float32Array, Float32Array];
  newStates: [Float32Array[], Float32Array[]];
  /** The set the next run reads. */
  parity: 0 | 1;
  /** Which rows at which frame counts states[parity] holds ('' when stale). */
  holds: string;
}

const STEP_INPUTS = [CODEC_GRAPH_INPUT, CODEC_STATIC_ATTENTION_BIAS, CODEC_STATIC_QUERY_POSITIONS, CODEC_STATIC_KEY_POSITIONS] as const;
const STEP_TYPES = ['int32', 'float32', 'int64', 'int64'] as const;
const STEP_RANKS = [3, 5, 2, 2];
/** The host-written inputs a build has: codes and mask, plus the RoPE positions on portable-ops builds. */
const numStepInputs = (spec: GraphSpec): number => (spec.inputs.some((i) => i.name === CODEC_STATIC_QUERY_POSITIONS) ? 4 : 2);

/** Copy bindings first: they bind the step bindings' buffers. */
function releaseBucket(b: Bucket): BindableSession[] {
  for (const binding of [b.upload, ...(b.joinUpload ? [b.joinUpload] : []), ...b.stage, ...b.download, b.step[1], b.step[0]]) binding.release();
  return b.sessions;
}

export class BoundCodecStream implements CodecStage {
  readonly sampleRateHz: number;
  readonly samplesPerFrame: number;
  readonly streaming = true;
  /** Rows of every run, for tests and the bench. */
  readonly runBatchSizes: number[] = [];
  private readonly record = new Map<number, Float32Array[]>();
  private readonly numQuantizers: number;
  private readonly numCarried: number;
  /** Portable-ops builds take RoPE positions from the host; fused ones use constant starts. */
  private readonly hasPositions: boolean;

  private constructor(
    private readonly buckets: BoundBuckets<Bucket, 'upload' | 'stage' | 'download' | 'joins'>,
    manifest: ModelManifest,
    private readonly io: readonly StateIo[],
    private readonly joins: readonly JoinIo[],
    spec: GraphSpec,
  ) {
    this.sampleRateHz = manifest.codec.sampleRateHz;
    this.samplesPerFrame = manifest.codec.samplesPerFrame;
    this.numQuantizers = manifest.codec.numQuantizers;
    // attention_bias is [batch, 1, 1, num_frames, num_frames + W − 1]
    this.numCarried = Number(String(spec.inputs[1].dims[4]).split('+')[1]);
    this.hasPositions = spec.inputs.some((i) => i.name === CODEC_STATIC_QUERY_POSITIONS);
  }

  /** Opens the static stream session (with the setup's capture options) and its copy sessions; buffers live where the setup says. */
  static async open(model: string, manifest: ModelManifest, setup: BoundSetup, key: 'codecStreamStatic' | 'codecStreamStaticMatMul' = 'codecStreamStatic'): Promise<BoundCodecStream> {
    const spec = manifest.graphs[key];
    if (!spec) throw new StudioError('model-invalid', `the capture-ready streaming codec needs the ${key} graph, which this build lacks; rebuild the model with 'studio model build'`, {});
    const io = stateIo(spec);
    const joins = joinIo(spec);
    const n = numStepInputs(spec);
    // a graph with no joins gets a one-input copy graph it never runs (a copy graph needs an input)
    const joinCopy = joins.length > 0 ? buildTypedCopyGraph(joins.flatMap(() => ['int32', 'float32'] as const), joins.flatMap((j) => [1, j.keep.dims.length])) : buildCopyGraph(1, 'float32', 1);
    const buckets = await BoundBuckets.open(model, setup, {
      upload: buildTypedCopyGraph(STEP_TYPES.slice(0, n), STEP_RANKS.slice(0, n)),
      stage: buildCopyGraph(io.length, 'float32', 3),
      download: buildTypedCopyGraph(['float32', ...io.map(() => 'float32' as const)], [2, ...io.map(() => 3)]),
      joins: joinCopy,
    }, releaseBucket);
    return new BoundCodecStream(buckets, manifest, io, joins, spec);
  }

  stats(): BoundCodecStats {
    return { ...this.buckets.stats(), numSequences: this.record.size };
  }

  async decode(codes: CodecWindow): Promise<Float32Array> {
    return (await this.decodeBatch([codes]))[0];
  }

  /** Plain windows: decoded from zero state, nothing kept (the same as the window graph's zero padding). */
  async decodeBatch(windows: readonly CodecWindow[]): Promise<Float32Array[]> {
    return this.decodeStreamBatch(windows.map((window) => ({ sequenceId: null, window, numDecodedFrames: 0 })));
  }

  async decodeStreamBatch(rows: readonly CodecStreamRow[]): Promise<Float32Array[]> {
    const frames = rows[0].window.length;
    const b = await this.bucket(rows.length, frames);
    // a padded row repeats a real row (BucketedCodec): its slot holds what it wrote last run, and its outputs are dropped
    const holds = rows.every((r) => r.sequenceId !== null && r.numDecodedFrames > 0) ? rows.map((r) => `${r.sequenceId}@${r.numDecodedFrames}`).join(',') : '';
    const p = b.parity;
    if (holds === '' || b.holds !== holds) await this.stage(b, rows);
    b.holds = '';
    this.writeStep(b, rows);
    if (!b.joinsReady && b.joinUpload) await this.buckets.timed('upload', () => b.joinUpload!.run());
    b.joinsReady = true;
    await this.buckets.timed('upload', () => b.upload.run(), hostBytes([b.codes, b.mask, b.queryPositions, b.keyPositions]));
    await this.buckets.timed('step', () => b.step[p].run({ gpuGraphId: b.graphIds[p] }));
    await this.buckets.timed('download', () => b.download[p].run(), hostBytes([b.pcm[p], ...b.newStates[p]]));
    this.buckets.ran();
    this.runBatchSizes.push(rows.length);
    b.parity = p === 0 ? 1 : 0;
    const newStates = b.newStates[p];
    const kept = new Set<number>();
    rows.forEach((r, row) => {
      if (r.sequenceId === null || kept.has(r.sequenceId)) return;
      kept.add(r.sequenceId);
      this.record.set(r.sequenceId, this.io.map((s, i) => newStates[i].slice(row * rowsPerState(s), (row + 1) * rowsPerState(s))));
    });
    b.holds = rows.every((r) => r.sequenceId !== null) ? rows.map((r) => `${r.sequenceId}@${r.numDecodedFrames + frames}`).join(',') : '';
    const perRow = frames * this.samplesPerFrame;
    const pcm = b.pcm[p];
    return rows.map((_, row) => pcm.slice(row * perRow, (row + 1) * perRow));
  }

  releaseStream(sequenceId: number): void {
    this.record.delete(sequenceId);
  }

  dispose(): Promise<void> {
    this.record.clear();
    return this.buckets.dispose();
  }

  /** Codes, each row's mask and (portable builds) the RoPE positions. */
  private writeStep(b: Bucket, rows: readonly CodecStreamRow[]): void {
    const q = this.numQuantizers;
    const n = b.frames;
    rows.forEach((r, row) => {
      if (r.window.length !== n) throw new StudioError('internal', `codec batch mixes window lengths ${n} and ${r.window.length}`, {});
      r.window.forEach((frame, t) => frame.forEach((c, j) => (b.codes[(row * q + j) * n + t] = c)));
    });
    writeStreamStaticMask(b.mask, rows.map((r) => r.numDecodedFrames), n, this.numCarried + 1);
    writeStreamStaticPositions(b.queryPositions, b.keyPositions, this.numCarried + 1);
  }

  /** Copies the rows' recorded states (zeros for rows that start) into the read set. */
  private async stage(b: Bucket, rows: readonly CodecStreamRow[]): Promise<void> {
    this.buckets.staged();
    const views = b.stageViews[b.parity];
    this.io.forEach((s, i) => {
      const size = rowsPerState(s);
      rows.forEach((r, row) => {
        const target = views[i].subarray(row * size, (row + 1) * size);
        if (r.numDecodedFrames === 0) return void target.fill(0);
        const state = r.sequenceId === null ? undefined : this.record.get(r.sequenceId);
        if (!state) throw missingState(r);
        target.set(state[i]);
      });
    });
    await this.buckets.timed('stage', () => b.stage[b.parity].run(), hostBytes(views));
  }

  /** Binds the carry joins' inputs of both step bindings at `frames` and writes their host side; null when the graph has none. */
  private bindJoins(step: [StageBinding, StageBinding], bind: (session: StageSession) => StageBinding, frames: number): StageBinding | null {
    if (this.joins.length === 0) return null;
    const { copies, location: at } = this.buckets;
    const upload = bind(copies.joins);
    this.joins.forEach((j, k) => {
      const { length, numState } = joinLength(j.index.dims[0], frames);
      const views = ([[j.index, 'int32'], [j.keep, 'float32']] as const).map(([io, type], m) => {
        const dims = joinDims(io.dims, length);
        const onDevice = step[0].input(io.name, type, dims, at);
        step[1].attach(io.name, onDevice, 'input');
        upload.attach(copyOutputName(2 * k + m), onDevice, 'output');
        return upload.input(copyInputName(2 * k + m), type, dims).host!;
      });
      writeJoinInputs(views[0] as Int32Array, views[1] as Float32Array, numState);
    });
    return upload;
  }

  /** Two graph ids per bucket (one per state set), each with its own session where the provider keeps one captured graph per session. */
  private bucket(rows: number, frames: number): Promise<Bucket> {
    const open = (first: BindableSession, second: BindableSession) => this.openBucket([first, second], rows, frames);
    return this.buckets.bucket(`${rows}:${frames}`, open, 2);
  }

  private openBucket(sessions: [BindableSession, BindableSession], rows: number, frames: number): Bucket {
    const { copies, location: at } = this.buckets;
    const bindings: StageBinding[] = [];
    const bind = (session: StageSession) => {
      const binding = session.bind!();
      bindings.push(binding);
      return binding;
    };
    try {
      const step: [StageBinding, StageBinding] = [bind(sessions[0]), bind(sessions[1])];
      const upload = bind(copies.upload);
      const numKeys = frames + this.numCarried;
      const stepDims = [[rows, this.numQuantizers, frames], [rows, 1, 1, frames, numKeys], [1, frames], [1, numKeys]];
      const hostIn = STEP_INPUTS.slice(0, this.hasPositions ? 4 : 2).map((name, i) => {
        const onDevice = step[0].input(name, STEP_TYPES[i], stepDims[i], at);
        step[1].attach(name, onDevice, 'input');
        upload.attach(copyOutputName(i), onDevice, 'output');
        return upload.input(copyInputName(i), STEP_TYPES[i], stepDims[i]).host!;
      });
      const joinUpload = this.bindJoins(step, bind, frames);
      const pcmDims = [rows, frames * this.samplesPerFrame];
      const pcm = step[0].output(CODEC_GRAPH_OUTPUT, 'float32', pcmDims, at);
      step[1].attach(CODEC_GRAPH_OUTPUT, pcm, 'output');
      const setA: StageBuffer[] = [];
      const setB: StageBuffer[] = [];
      this.io.forEach((s) => {
        const dims = [rows, ...s.dims];
        const a = step[0].input(s.input, 'float32', dims, at);
        const b = step[0].output(s.output, 'float32', dims, at);
        step[1].attach(s.input, b, 'input');
        step[1].attach(s.output, a, 'output');
        setA.push(a);
        setB.push(b);
      });
      const states: [StageBuffer[], StageBuffer[]] = [setA, setB];
      const stage: [StageBinding, StageBinding] = [bind(copies.stage), bind(copies.stage)];
      const stageViews = ([0, 1] as const).map((p) =>
        this.io.map((s, i) => {
          stage[p].attach(copyOutputName(i), states[p][i], 'output');
          return stage[p].input(copyInputName(i), 'float32', [rows, ...s.dims]).host as Float32Array;
        }),
      ) as [Float32Array[], Float32Array[]];
      const download: [StageBinding, StageBinding] = [bind(copies.download), bind(copies.download)];
      const outViews = ([0, 1] as const).map((p) => {
        download[p].attach(copyInputName(0), pcm, 'input');
        const pcmView = download[p].output(copyOutputName(0), 'float32', pcmDims).host as Float32Array;
        const stateViews = this.io.map((s, i) => {
          download[p].attach(copyInputName(i + 1), states[1 - p][i], 'input');
          return download[p].output(copyOutputName(i + 1), 'float32', [rows, ...s.dims]).host as Float32Array;
        });
        return { pcmView, stateViews };
      });
      const graphIds: [number, number] = [this.buckets.graphId(), this.buckets.graphId()];
      const [codes, mask, queryPositions, keyPositions] = hostIn;
      return {
        rows, frames, step, sessions, graphIds, states, upload, joinUpload, joinsReady: false, stage, stageViews, download,
        codes: codes as Int32Array, mask: mask as Float32Array,
        queryPositions: (queryPositions as BigInt64Array | undefined) ?? new BigInt64Array(0), keyPositions: (keyPositions as BigInt64Array | undefined) ?? new BigInt64Array(0),
        pcm: [outViews[0].pcmView, outViews[1].pcmView], newStates: [outViews[0].stateViews, outViews[1].stateViews], parity: 0, holds: '',
      };
    } catch (err) {
      for (const binding of bindings.reverse()) binding.release();
      throw err;
    }
  }
}

/** The static graph's states (state input i after the host-written ones pairs with output i + 1). */
function stateIo(spec: GraphSpec): StateIo[] {
  const states = spec.inputs.slice(numStepInputs(spec)).filter((io) => !io.name.startsWith(CODEC_STATIC_JOIN_PREFIX));
  return states.map((io, i) => ({ input: io.name, output: spec.outputs[i + 1].name, dims: [Number(io.dims[1]), Number(io.dims[2])] }));
}

/** One carry join's host inputs: the index and keep inputs (as the manifest lists them, index first). */
interface JoinIo {
  index: { name: string; dims: readonly (string | number)[] };
  keep: { name: string; dims: readonly (string | number)[] };
}

function joinIo(spec: GraphSpec): JoinIo[] {
  const joins = spec.inputs.filter((io) => io.name.startsWith(CODEC_STATIC_JOIN_PREFIX));
  const pairs: JoinIo[] = [];
  for (let i = 0; i + 1 < joins.length; i += 2) pairs.push({ index: joins[i], keep: joins[i + 1] });
  return pairs;
}

/** The dims of a join input at `frames`: its symbolic length replaced by the number. */
const joinDims = (dims: readonly (string | number)[], length: number): number[] => dims.map((d) => (typeof d === 'number' ? d : length));
