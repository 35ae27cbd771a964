/**
 * Where the streaming codec keeps each sequence's carried state between calls. The store contract,
 * and the host store: one Float32Array per state per sequence, staged into every call (the CPU
 * default). The device store (codec-state-device.ts) keeps a call's state outputs on the GPU.
 */
import { StudioError } from '../../../src-shared/errors';
import { tensor, type OrtTensor } from '../runtime/ort';

/** One carried state of the streaming graph: input and output names and its size per row. */
export interface StateIo {
  input: string;
  output: string;
  dims: [number, number];
}

/** A row of a streaming call, as the store sees it: whose state, and whether it has one yet. */
export interface StateRow {
  /** null: start from zeros and keep nothing (a plain window decoded from the start). */
  sequenceId: number | null;
  /** 0: the row starts from the zero state; else the store must hold the sequence's state. */
  numDecodedFrames: number;
}

export interface CodecStateStats {
  strategy: 'host' | 'device';
  /** Sequences whose state is kept. */
  numSequences: number;
  /** Device store: calls whose state inputs were the previous call's outputs as they were / gathered on the device / all zeros. */
  numCallsReused: number;
  numCallsGathered: number;
  numCallsFresh: number;
}

export interface CodecStateStore {
  /** The state inputs of one call: row b's state at row b, zeros for rows that start. */
  feeds(rows: readonly StateRow[]): Promise<Record<string, OrtTensor>>;
  /** Keeps each sequence's new state from the call's outputs (its first row in the call) and frees what the call consumed. */
  accept(rows: readonly StateRow[], feeds: Record<string, OrtTensor>, outputs: Record<string, OrtTensor>): void;
  /** Forgets a sequence's state (finished, cancelled or failed). */
  release(sequenceId: number): void;
  stats(): CodecStateStats;
  dispose(): Promise<void>;
}

export const rowsPerState = (s: StateIo): number => s.dims[0] * s.dims[1];

/** Host zeros for every state of a call of `batch` rows. */
export function zeroStateFeeds(io: readonly StateIo[], batch: number): Record<string, OrtTensor> {
  return Object.fromEntries(io.map((s) => [s.input, tensor('float32', new Float32Array(batch * rowsPerState(s)), [batch, ...s.dims])]));
}

/** The rows whose new state is kept: each sequence's first row in the call (later ones are padded copies). */
export function keptRows(rows: readonly StateRow[]): { sequenceId: number; row: number }[] {
  const seen = new Set<number>();
  return rows.flatMap((r, row) => (r.sequenceId === null || seen.has(r.sequenceId) ? [] : (seen.add(r.sequenceId), [{ sequenceId: r.sequenceId, row }])));
}

export function missingState(r: StateRow): StudioError {
  return new StudioError('internal', `the streaming codec has no state for sequence ${r.sequenceId} after ${r.numDecodedFrames} decoded frames; a chunk after the first must follow one decoded by this codec`, {});
}

export class HostCodecStateStore implements CodecStateStore {
  private readonly states = new Map<number, Float32Array[]>();

  constructor(private readonly io: readonly StateIo[]) {}

  async feeds(rows: readonly StateRow[]): Promise<Record<string, OrtTensor>> {
    const feeds = zeroStateFeeds(this.io, rows.length);
    rows.forEach((r, b) => {
      if (r.numDecodedFrames === 0) return;
      const state = r.sequenceId === null ? undefined : this.states.get(r.sequenceId);
      if (!state) throw missingState(r);
      this.io.forEach((s, i) => (feeds[s.input].data as Float32Array).set(state[i], b * rowsPerState(s)));
    });
    return feeds;
  }

  accept(rows: readonly StateRow[], _feeds: Record<string, OrtTensor>, outputs: Record<string, OrtTensor>): void {
    for (const { sequenceId, row } of keptRows(rows)) {
      this.states.set(sequenceId, this.io.map((s) => (outputs[s.output].data as Float32Array).slice(row * rowsPerState(s), (row + 1) * rowsPerState(s))));
    }
  }

  release(sequenceId: number): void {
    this.states.delete(sequenceId);
  }

  stats(): CodecStateStats {
    return { strategy: 'host', numSequences: this.states.size, numCallsReused: 0, numCallsGathered: 0, numCallsFresh: 0 };
  }

  async dispose(): Promise<void> {
    this.states.clear();
  }
}
