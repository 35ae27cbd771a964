/**
 * Device-resident codec state (WebGPU): a streaming call's state outputs stay on the GPU as one
 * resident batch. The next call feeds them back as they are when it has the same rows in the same
 * order; otherwise its rows are gathered from the resident batches on the device (row-gather graph,
 * zeros made there for rows that start, so even a first call uploads no state). A batch is freed once none of its sequences' newest state lives there.
 */
import { buildRowGatherGraph, GATHER_ROWS, gatherSourceName, regroupOutputName } from '../../model-format/copy-graph';
import { disposeTensor, runSession, tensor, type OrtTensor, type ProviderName } from '../runtime/ort';
import { PROVIDERS } from '../runtime/providers';
import { sessionsByCount } from '../runtime/sessions-by-count';
import { keptRows, missingState, type CodecStateStats, type CodecStateStore, type StateIo, type StateRow } from './codec-state';

/** New device tensors, per state: the sources' rows concatenated, one zero row appended, `rows` picked. */
export type RowGatherer = (sources: readonly (readonly OrtTensor[])[], rows: readonly number[]) => Promise<OrtTensor[]>;

interface ResidentBatch {
  /** One tensor per state, in StateIo order. */
  tensors: OrtTensor[];
  /** The call's rows (padded copies included). */
  sequenceIds: (number | null)[];
}

export class DeviceCodecStateStore implements CodecStateStore {
  private readonly resident = new Map<number, ResidentBatch>();
  /** Where each sequence's newest state lives: batch key and row. */
  private readonly location = new Map<number, { key: number; row: number }>();
  private nextKey = 0;
  /** Tensors gathered for the call in flight, freed when it is accepted (or by the next call if it failed). */
  private gathered: OrtTensor[] = [];
  private readonly counts = { numCallsReused: 0, numCallsGathered: 0, numCallsFresh: 0 };

  constructor(
    private readonly io: readonly StateIo[],
    private readonly gather: RowGatherer,
    private readonly onDispose: () => Promise<void> = async () => {},
  ) {}

  async feeds(rows: readonly StateRow[]): Promise<Record<string, OrtTensor>> {
    this.freeGathered();
    const located = rows.map((r) => {
      if (r.numDecodedFrames === 0) return null;
      const at = r.sequenceId === null ? undefined : this.location.get(r.sequenceId);
      if (!at) throw missingState(r);
      return at;
    });
    const first = located[0] && this.resident.get(located[0].key);
    if (first && located.every((at) => at?.key === located[0]!.key) && sameRows(first.sequenceIds, rows)) {
      this.counts.numCallsReused++;
      return this.named(first.tensors);
    }
    const keys = [...new Set(located.flatMap((at) => (at ? [at.key] : [])))];
    const offsets = new Map<number, number>();
    let numSourceRows = 0;
    for (const key of keys) {
      offsets.set(key, numSourceRows);
      numSourceRows += this.resident.get(key)!.sequenceIds.length;
    }
    const pick = located.map((at) => (at ? offsets.get(at.key)! + at.row : numSourceRows)); // numSourceRows: the zero row
    this.gathered = await this.gather(keys.map((k) => this.resident.get(k)!.tensors), pick);
    this.counts[keys.length === 0 ? 'numCallsFresh' : 'numCallsGathered']++;
    return this.named(this.gathered);
  }

  accept(rows: readonly StateRow[], _feeds: Record<string, OrtTensor>, outputs: Record<string, OrtTensor>): void {
    this.freeGathered();
    const key = this.nextKey++;
    this.resident.set(key, { tensors: this.io.map((s) => outputs[s.output]), sequenceIds: rows.map((r) => r.sequenceId) });
    for (const { sequenceId, row } of keptRows(rows)) this.location.set(sequenceId, { key, row });
    const live = new Set([...this.location.values()].map((at) => at.key));
    for (const old of [...this.resident.keys()]) if (!live.has(old)) this.drop(old);
  }

  release(sequenceId: number): void {
    const at = this.location.get(sequenceId);
    if (!at) return;
    this.location.delete(sequenceId);
    if (![...this.location.values()].some((other) => other.key === at.key)) this.drop(at.key);
  }

  stats(): CodecStateStats & { numResidentBatches: number } {
    return { strategy: 'device', numSequences: this.location.size, numResidentBatches: this.resident.size, ...this.counts };
  }

  async dispose(): Promise<void> {
    this.freeGathered();
    for (const key of [...this.resident.keys()]) this.drop(key);
    this.location.clear();
    await this.onDispose();
  }

  private named(tensors: readonly OrtTensor[]): Record<string, OrtTensor> {
    return Object.fromEntries(this.io.map((s, i) => [s.input, tensors[i]]));
  }

  private freeGathered(): void {
    for (const t of this.gathered) disposeTensor(t);
    this.gathered = [];
  }

  private drop(key: number): void {
    const batch = this.resident.get(key);
    if (!batch) return;
    this.resident.delete(key);
    for (const t of batch.tensors) disposeTensor(t);
  }
}

function sameRows(ids: readonly (number | null)[], rows: readonly StateRow[]): boolean {
  return ids.length === rows.length && rows.every((r, b) => r.sequenceId !== null && r.sequenceId === ids[b]);
}

/** A device store whose row gather runs on `provider` (outputs left on the device where they can stay there). */
export function createDeviceCodecStateStore(io: readonly StateIo[], provider: ProviderName): DeviceCodecStateStore {
  const outputs = io.map((_, i) => regroupOutputName(i));
  const sessions = sessionsByCount((n) => buildRowGatherGraph(n, io.map((s) => s.dims), 'float32'), { provider, intraOpNumThreads: 1, ...(PROVIDERS[provider].gpuBufferOutputs ? { gpuOutputs: outputs } : {}) });
  const gather: RowGatherer = async (sources, rows) => {
    const feeds: Record<string, OrtTensor> = { [GATHER_ROWS]: tensor('int64', BigInt64Array.from(rows, BigInt), [rows.length]) };
    sources.forEach((tensors, s) => tensors.forEach((t, i) => (feeds[gatherSourceName(s, i)] = t)));
    const out = await runSession(await sessions.open(sources.length), feeds, outputs);
    return outputs.map((n) => out[n]);
  };
  return new DeviceCodecStateStore(io, gather, sessions.release);
}
