/**
 * Device-to-device moves into a bound codec bucket's state set (codec-bound-stream.ts): a whole set
 * copied from a set of the same rows, or a read set gathered row by row from the sets that hold the rows'
 * newest states (row-gather graph of copy-graph.ts, one session per source count, its appended zero row
 * for rows that start). Only the gather's row index crosses from the host. Each binding is made once per
 * (sources, target set), kept on the target bucket and released with the first bucket it binds.
 */
import { buildRowGatherGraph, copyInputName, copyOutputName, GATHER_ROWS, gatherSourceName, regroupOutputName } from '../../model-format/copy-graph';
import type { StageBinding } from '../runtime/runtime';
import type { CodecBucket, CachedMove } from './codec-bound-bucket';
import type { StateIo } from './codec-state';
import { openBindable, type BindableSession, type OpenSession } from './graph-sessions';

/** One state set of a bucket: states[parity]. */
export interface SetRef {
  bucket: CodecBucket;
  parity: 0 | 1;
}

/** Times a native run and counts its host bytes (the stream's 'stage' totals). */
export type TimedRun = (run: () => Promise<void>, numHostBytes: number) => Promise<void>;

const setKey = (s: SetRef): string => `${s.bucket.rows}:${s.bucket.frames}@${s.parity}`;

export class CodecSetMoves {
  /** Row-gather sessions by source count, opened on first use. */
  private readonly gathers = new Map<number, Promise<BindableSession>>();

  constructor(
    private readonly open: OpenSession,
    private readonly io: readonly StateIo[],
    /** The N-tensor copy session (the stream's staging one). */
    private readonly copySession: BindableSession,
  ) {}

  /** Copies set `from` into set `to` of the same rows (0 host bytes). */
  async copy(from: SetRef, to: SetRef, timed: TimedRun): Promise<void> {
    const move = await this.cached(`copy<${setKey(from)}`, [from.bucket], to, () => {
      const binding = this.copySession.bind();
      this.io.forEach((_, i) => {
        binding.attach(copyInputName(i), from.bucket.states[from.parity][i], 'input');
        binding.attach(copyOutputName(i), to.bucket.states[to.parity][i], 'output');
      });
      return Promise.resolve({ binding, index: null });
    });
    await timed(() => move.binding.run(), 0);
  }

  /**
   * Fills set `to` with rows of the sources' sets concatenated in order: row k of the target gets
   * concatenated row pick[k], and pick[k] = total source rows gives zeros. The index (8 bytes a row) is the only upload.
   */
  async gather(sources: readonly SetRef[], to: SetRef, pick: readonly number[], timed: TimedRun): Promise<void> {
    const move = await this.cached(`gather<${sources.map(setKey).join('+')}`, sources.map((s) => s.bucket), to, async () => {
      const binding = (await this.gatherSession(sources.length)).bind();
      try {
        const index = binding.input(GATHER_ROWS, 'int64', [to.bucket.rows]).host as BigInt64Array;
        sources.forEach((s, k) => this.io.forEach((_, i) => binding.attach(gatherSourceName(k, i), s.bucket.states[s.parity][i], 'input')));
        this.io.forEach((_, i) => binding.attach(regroupOutputName(i), to.bucket.states[to.parity][i], 'output'));
        return { binding, index };
      } catch (err) {
        binding.release();
        throw err;
      }
    });
    const index = move.index!;
    pick.forEach((row, k) => (index[k] = BigInt(row)));
    await timed(() => move.binding.run(), index.byteLength);
  }

  /** Row-gather sessions opened (or opening). */
  get numGatherSessions(): number {
    return this.gathers.size;
  }

  async dispose(): Promise<void> {
    for (const s of this.gathers.values()) await (await s).release();
    this.gathers.clear();
  }

  private gatherSession(numSources: number): Promise<BindableSession> {
    let session = this.gathers.get(numSources);
    if (!session) {
      session = openBindable(this.open, buildRowGatherGraph(numSources, this.io.map((s) => s.dims), 'float32'), { intraOpNumThreads: 1 });
      this.gathers.set(numSources, session);
      session.catch(() => this.gathers.delete(numSources));
    }
    return session;
  }

  /** The move under `key` into `to`, made (and linked to every bucket it binds) when absent or when a bucket it bound was released. */
  private async cached(key: string, sources: readonly CodecBucket[], to: SetRef, make: () => Promise<{ binding: StageBinding; index: BigInt64Array | null }>): Promise<CachedMove> {
    const moves = to.bucket.moves;
    const fullKey = `${to.parity}${key}`;
    const found = moves.get(fullKey);
    if (found && found.buckets.every((b, k) => !b.released && b === [...sources, to.bucket][k])) return found;
    for (const [k, move] of moves) if (k === fullKey || move.buckets.some((b) => b.released)) unlink(moves, k, move);
    const made = await make();
    const move: CachedMove = { ...made, buckets: [...sources, to.bucket] };
    for (const b of move.buckets) b.linked.add(move.binding);
    moves.set(fullKey, move);
    return move;
  }
}

/** Drops a cached move: released, and forgotten by the buckets still open. */
function unlink(moves: Map<string, CachedMove>, key: string, move: CachedMove): void {
  moves.delete(key);
  move.binding.release();
  for (const b of move.buckets) b.linked.delete(move.binding);
}
