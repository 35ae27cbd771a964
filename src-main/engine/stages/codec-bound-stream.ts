/**
 * The streaming codec on its capture-ready graph (codec_decoder_stream_static.onnx) through IoBinding, over
 * the shape buckets of codec-bound-bucket.ts (ping-pong state sets: a run reads one set and writes the other).
 * Only the PCM leaves the device every call. Each sequence's newest state stays where the run wrote it (its
 * home: a bucket's read set and row) and reaches the host only when it must: before its bucket's set is
 * overwritten or evicted, staged into rows whose states are not all on the device, or asked for (hostState).
 * A call whose rows a bucket of the same row count holds in the same order copies that set device to device;
 * other rows whose states are on the device are gathered there (codec-bound-moves.ts); all-start calls reuse a zeroed set.
 */
import { StudioError } from '../../../src-shared/errors';
import { buildCopyGraph, buildTypedCopyGraph } from '../../model-format/copy-graph';
import { CODEC_STATIC_QUERY_POSITIONS, writeStreamStaticMask, writeStreamStaticPositions } from '../../model-format/codec/codec-stream-io';
import type { GraphSpec, ModelManifest } from '../../model-format/manifest';
import { BoundBuckets, hostBytes, type BoundBucketStats, type BoundSetup } from './bound-buckets';
import type { BindableSession } from './graph-sessions';
import { CodecSetMoves, type TimedRun } from './codec-bound-moves';
import { missingState, rowsPerState, type StateIo } from './codec-state';
import type { CodecStage, CodecStreamRow, CodecWindow } from './stages';
import {
  joinIo, numStepInputs, openCodecBucket, releaseCodecBucket, stateIo, STEP_RANKS, STEP_TYPES,
  type CodecBucket, type CodecBucketContext, type JoinIo,
} from './codec-bound-bucket';

/**
 * numRunsStaged: runs whose read set was written first (from the host record, or device to device: copied
 * or gathered); numGraphIds counts two per bucket (one per state set).
 */
export interface BoundCodecStats extends BoundBucketStats {
  /** Sequences whose state is kept (on the device or the host). */
  numSequences: number;
  /** Row-gather sessions open (one per number of source buckets a gather joined). */
  numGatherSessions: number;
}

/** A sequence's newest state: on the device (bucket.states[bucket.parity], row `row`) or, once it had to leave it, on the host. */
type StateRecord = { at: 'device'; bucket: CodecBucket; row: number } | { at: 'host'; states: Float32Array[] };

/** `id@frames` per row when every row continues a sequence ('' otherwise): what a read set must hold to skip staging. */
const holdsOf = (rows: readonly CodecStreamRow[], numNewFrames: number): string =>
  rows.every((r) => r.sequenceId !== null && r.numDecodedFrames + numNewFrames > 0) ? rows.map((r) => `${r.sequenceId}@${r.numDecodedFrames + numNewFrames}`).join(',') : '';

export class BoundCodecStream implements CodecStage {
  readonly sampleRateHz: number;
  readonly samplesPerFrame: number;
  readonly streaming = true;
  /** Rows of every run, for tests and the bench. */
  readonly runBatchSizes: number[] = [];
  private readonly record = new Map<number, StateRecord>();
  private readonly context: CodecBucketContext;
  private readonly moves: CodecSetMoves;
  /** Device moves and stagings count as 'stage' runs. */
  private readonly timedStage: TimedRun;

  private constructor(
    private readonly buckets: BoundBuckets<CodecBucket, 'upload' | 'stage' | 'download' | 'joins'>,
    manifest: ModelManifest,
    private readonly io: readonly StateIo[],
    joins: readonly JoinIo[],
    spec: GraphSpec,
    setup: BoundSetup,
  ) {
    this.sampleRateHz = manifest.codec.sampleRateHz;
    this.samplesPerFrame = manifest.codec.samplesPerFrame;
    this.context = {
      copies: buckets.copies, location: buckets.location, io, joins, numQuantizers: manifest.codec.numQuantizers,
      // attention_bias is [batch, 1, 1, num_frames, num_frames + W − 1]
      numCarried: Number(String(spec.inputs[1].dims[4]).split('+')[1]),
      // portable-ops builds take RoPE positions from the host; fused ones use constant starts
      hasPositions: spec.inputs.some((i) => i.name === CODEC_STATIC_QUERY_POSITIONS),
      samplesPerFrame: this.samplesPerFrame, graphId: () => buckets.graphId(),
    };
    this.moves = new CodecSetMoves(setup.open, io, buckets.copies.stage);
    this.timedStage = (run, numHostBytes) => buckets.timed('stage', run, numHostBytes);
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
      // states: host → set, set → host and set → set
      stage: buildCopyGraph(io.length, 'float32', 3),
      download: buildCopyGraph(1, 'float32', 2),
      joins: joinCopy,
    }, releaseCodecBucket);
    return new BoundCodecStream(buckets, manifest, io, joins, spec, setup);
  }

  stats(): BoundCodecStats {
    return { ...this.buckets.stats(), numSequences: this.record.size, numGatherSessions: this.moves.numGatherSessions };
  }

  async decode(codes: CodecWindow): Promise<Float32Array> {
    return (await this.decodeBatch([codes]))[0];
  }

  /** Plain windows: decoded from zero state, nothing kept (the same as the window graph's zero padding). */
  async decodeBatch(windows: readonly CodecWindow[]): Promise<Float32Array[]> {
    return this.decodeStreamBatch(windows.map((window) => ({ sequenceId: null, window, numDecodedFrames: 0 })));
  }

  /** Calls must not overlap (each reads the state the one before wrote). */
  async decodeStreamBatch(rows: readonly CodecStreamRow[]): Promise<Float32Array[]> {
    const frames = rows[0].window.length;
    const b = await this.bucket(rows.length, frames);
    // a padded row repeats a real row (BucketedCodec): its slot holds what it wrote last run, and its outputs are dropped
    const holds = holdsOf(rows, 0);
    const p = holds !== '' && b.holds === holds ? b.parity : await this.prepare(b, rows, holds);
    b.holds = '';
    this.writeStep(b, rows);
    if (!b.joinsReady && b.joinUpload) await this.buckets.timed('upload', () => b.joinUpload!.run());
    b.joinsReady = true;
    await this.buckets.timed('upload', () => b.upload.run(), hostBytes([b.codes, b.mask, b.queryPositions, b.keyPositions]));
    const written = p === 0 ? 1 : 0;
    b.zeroed[written] = false;
    await this.buckets.timed('step', () => b.step[p].run({ gpuGraphId: b.graphIds[p] }));
    b.parity = written;
    await this.buckets.timed('download', () => b.pcmDownload.run(), hostBytes([b.pcm]));
    this.buckets.ran();
    this.runBatchSizes.push(rows.length);
    rows.forEach((r, row) => {
      const id = r.sequenceId;
      if (id !== null && rows.findIndex((o) => o.sequenceId === id) === row) this.record.set(id, { at: 'device', bucket: b, row });
    });
    b.holds = holdsOf(rows, frames);
    const perRow = frames * this.samplesPerFrame;
    return rows.map((_, row) => b.pcm.slice(row * perRow, (row + 1) * perRow));
  }

  /** The sequence's newest state on the host (downloaded if it is on the device); undefined when none is kept. For tests and debugging. */
  async hostState(sequenceId: number): Promise<Float32Array[] | undefined> {
    const state = this.record.get(sequenceId);
    if (state?.at === 'device') await this.evacuate(state.bucket);
    const now = this.record.get(sequenceId);
    return now?.at === 'host' ? now.states : undefined;
  }

  releaseStream(sequenceId: number): void {
    this.record.delete(sequenceId);
  }

  async dispose(): Promise<void> {
    this.record.clear();
    await this.buckets.dispose();
    await this.moves.dispose();
  }

  /**
   * Fills the read set for rows it does not hold, and returns the set the run reads. States homed in the
   * bucket go to the host first (the set is about to be overwritten); then, in order of preference: a zeroed
   * set when every row starts (zeros staged once), a device-to-device copy from a bucket that holds these rows in this order,
   * a device gather when every state needed is on the device (gather()), or staging from the host record
   * (zeros for rows that start).
   */
  private async prepare(b: CodecBucket, rows: readonly CodecStreamRow[], holds: string): Promise<0 | 1> {
    const sources = this.deviceSources(rows);
    const same = holds === '' ? undefined : this.buckets.openBuckets().find((s) => s !== b && s.rows === b.rows && s.holds === holds);
    if (sources && !same) return this.gather(b, rows, sources);
    await this.evacuate(b);
    b.holds = '';
    const p = b.parity;
    if (rows.every((r) => r.numDecodedFrames === 0)) {
      if (b.zeroed[p] || b.zeroed[1 - p]) return b.zeroed[p] ? p : p === 0 ? 1 : 0;
      // zeros staged from the host (zeroing by a no-source gather on the device came in with a change that made
      // captured CUDA runs differ from bound ones, 2026-12-07: docs/benchmarks.md, the fifth session)
      await this.stage(b, rows);
      b.zeroed[p] = true;
      return p;
    }
    if (same) {
      this.buckets.staged();
      await this.moves.copy({ bucket: same, parity: same.parity }, { bucket: b, parity: p }, this.timedStage);
    } else {
      for (const r of rows) {
        const state = r.sequenceId === null ? undefined : this.record.get(r.sequenceId);
        if (r.numDecodedFrames > 0 && state?.at === 'device') await this.evacuate(state.bucket);
      }
      await this.stage(b, rows);
    }
    b.zeroed[p] = false;
    return p;
  }

  /** Copies the rows' host records (zeros for rows that start) into the read set. */
  private async stage(b: CodecBucket, rows: readonly CodecStreamRow[]): Promise<void> {
    this.buckets.staged();
    const views = b.stageViews[b.parity];
    this.io.forEach((s, i) => {
      const size = rowsPerState(s);
      rows.forEach((r, row) => {
        const target = views[i].subarray(row * size, (row + 1) * size);
        if (r.numDecodedFrames === 0) return void target.fill(0);
        const state = r.sequenceId === null ? undefined : this.record.get(r.sequenceId);
        if (state?.at !== 'host') throw missingState(r);
        target.set(state.states[i]);
      });
    });
    await this.buckets.timed('stage', () => b.stage[b.parity].run(), hostBytes(views));
  }

  /** Downloads the bucket's read set when states are homed there (other than `keep`'s), and moves them to the host record. */
  private async evacuate(b: CodecBucket, keep: ReadonlySet<number | null> = new Set()): Promise<void> {
    const homed = [...this.record].filter(([id, s]) => s.at === 'device' && s.bucket === b && !keep.has(id)) as [number, { row: number }][];
    if (homed.length === 0) return;
    if (b.released) throw new StudioError('internal', `codec bucket ${b.rows}:${b.frames} was released while it held the newest state of sequence ${homed[0][0]}`, {});
    const views = b.stateViews[b.parity];
    await this.buckets.timed('download', () => b.stateDownload[b.parity].run(), hostBytes(views));
    for (const [id, { row }] of homed) {
      this.record.set(id, { at: 'host', states: this.io.map((s, i) => views[i].slice(row * rowsPerState(s), (row + 1) * rowsPerState(s))) });
    }
  }

  /**
   * The buckets whose read sets hold the newest state of every row that needs one (in order of first
   * use); undefined when a row's state is on the host or missing, or when every row starts (no gather).
   */
  private deviceSources(rows: readonly CodecStreamRow[]): CodecBucket[] | undefined {
    const sources = new Set<CodecBucket>();
    for (const r of rows) {
      if (r.numDecodedFrames === 0) continue;
      const state = r.sequenceId === null ? undefined : this.record.get(r.sequenceId);
      if (state?.at !== 'device') return undefined;
      sources.add(state.bucket);
    }
    return sources.size > 0 ? [...sources] : undefined;
  }

  /**
   * Gathers the rows' states from the sources' read sets into one of b's sets on the device, rows that
   * start from the gather's zero row. The set written is b's read set unless b is a source (then the other
   * one: the run then overwrites the source set, after the gather read it). States homed in b for
   * sequences outside the call go to the host first; those in the call are re-homed by the run.
   */
  private async gather(b: CodecBucket, rows: readonly CodecStreamRow[], sources: readonly CodecBucket[]): Promise<0 | 1> {
    await this.evacuate(b, new Set(rows.map((r) => r.sequenceId)));
    b.holds = '';
    const q = sources.includes(b) ? (b.parity === 0 ? 1 : 0) : b.parity;
    const offsets = new Map<CodecBucket, number>();
    let numSourceRows = 0;
    for (const s of sources) {
      offsets.set(s, numSourceRows);
      numSourceRows += s.rows;
    }
    const pick = rows.map((r) => {
      const state = r.numDecodedFrames === 0 || r.sequenceId === null ? undefined : this.record.get(r.sequenceId);
      return state?.at === 'device' ? offsets.get(state.bucket)! + state.row : numSourceRows;
    });
    this.buckets.staged();
    await this.moves.gather(sources.map((s) => ({ bucket: s, parity: s.parity })), { bucket: b, parity: q }, pick, this.timedStage);
    b.zeroed[q] = false;
    return q;
  }

  /** Codes, each row's mask and (portable builds) the RoPE positions. */
  private writeStep(b: CodecBucket, rows: readonly CodecStreamRow[]): void {
    const q = this.context.numQuantizers;
    const n = b.frames;
    rows.forEach((r, row) => {
      if (r.window.length !== n) throw new StudioError('internal', `codec batch mixes window lengths ${n} and ${r.window.length}`, {});
      r.window.forEach((frame, t) => frame.forEach((c, j) => (b.codes[(row * q + j) * n + t] = c)));
    });
    writeStreamStaticMask(b.mask, rows.map((r) => r.numDecodedFrames), n, this.context.numCarried + 1);
    writeStreamStaticPositions(b.queryPositions, b.keyPositions, this.context.numCarried + 1);
  }

  /**
   * The bucket for (rows, frames), two graph ids (one per state set), each with its own session where the
   * provider keeps one captured graph per session. States homed in a bucket the LRU is about to evict
   * go to the host first (the release callback cannot await a download).
   */
  private async bucket(rows: number, frames: number): Promise<CodecBucket> {
    const key = `${rows}:${frames}`;
    // calls are serial, so nothing opens between the evacuation and the eviction
    for (const victim of this.buckets.evictedBy(key)) await this.evacuate(victim);
    return this.buckets.bucket(key, (first: BindableSession, second: BindableSession) => openCodecBucket(this.context, [first, second], rows, frames), 2);
  }
}
