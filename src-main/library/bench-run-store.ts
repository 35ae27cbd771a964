/**
 * Stores benchmark run records in the library database for the dashboard: save, list (newest
 * first, small summaries only), get (the full record), delete. Records are kept as JSON beside a
 * few indexed columns; a record from a newer schema is refused with a clear error.
 */
import { StudioError } from '../../src-shared/errors';
import { BENCH_RUN_SCHEMA_VERSION, type BenchRunRecord } from '../bench/run-record';
import type { LibraryDb } from './library-db';

export interface BenchRunMeasurementSummary {
  id: string;
  kind: string;
  pass: number;
  variant: string;
  workload: string;
  numClients: number | null;
  reqPerS: number;
  latencyMedianMs: number | null;
  valid: boolean;
}

export interface BenchRunSummary {
  runId: string;
  schemaVersion: number;
  startedAt: string;
  finishedAt: string;
  mode: string;
  variants: string[];
  workloads: string[];
  numMeasurements: number;
  allValid: boolean;
  cancelled: boolean;
  measurements: BenchRunMeasurementSummary[];
}

export interface BenchRunStore {
  save(record: BenchRunRecord): void;
  list(options?: { limit?: number; offset?: number }): BenchRunSummary[];
  get(runId: string): BenchRunRecord | null;
  /** True when a run was deleted. */
  delete(runId: string): boolean;
}

interface Row {
  run_id: string;
  schema_version: number;
  started_at: string;
  finished_at: string;
  mode: string;
  variants: string;
  workloads: string;
  num_measurements: number;
  all_valid: number;
  cancelled: number;
  summary: string;
}

export function summariseRunForList(record: BenchRunRecord): BenchRunMeasurementSummary[] {
  return [
    ...record.measurements.map((m) => ({ id: m.id, kind: m.kind, pass: m.pass, variant: m.variant, workload: m.workload, numClients: m.numClients, reqPerS: m.reqPerS, latencyMedianMs: m.latency?.medianMs ?? null, valid: m.valid })),
    ...record.bursts.map((b) => ({ id: b.id, kind: 'burst', pass: b.pass, variant: b.variant, workload: b.workload, numClients: b.numRequests, reqPerS: b.drainMs > 0 ? b.counts.numOk / (b.drainMs / 1000) : 0, latencyMedianMs: b.latency?.medianMs ?? null, valid: b.valid })),
    ...record.openLoops.map((o) => ({ id: o.id, kind: 'open', pass: o.pass, variant: o.variant, workload: o.workload, numClients: null, reqPerS: o.achievedReqPerS, latencyMedianMs: o.latency?.medianMs ?? null, valid: o.valid })),
  ];
}

const MAX_LIST_LIMIT = 1000;

export function createBenchRunStore(library: LibraryDb): BenchRunStore {
  const { db } = library;
  const insert = db.prepare(`
    INSERT OR REPLACE INTO bench_runs
      (run_id, schema_version, started_at, finished_at, mode, variants, workloads, num_measurements, all_valid, cancelled, summary, record)
    VALUES (@runId, @schemaVersion, @startedAt, @finishedAt, @mode, @variants, @workloads, @numMeasurements, @allValid, @cancelled, @summary, @record)`);
  const selectList = db.prepare(`
    SELECT run_id, schema_version, started_at, finished_at, mode, variants, workloads, num_measurements, all_valid, cancelled, summary
    FROM bench_runs ORDER BY started_at DESC, run_id DESC LIMIT ? OFFSET ?`);
  const selectRecord = db.prepare('SELECT record, schema_version FROM bench_runs WHERE run_id = ?');
  const deleteRun = db.prepare('DELETE FROM bench_runs WHERE run_id = ?');

  return {
    save(record) {
      const measurements = summariseRunForList(record);
      const workloads = Array.isArray(record.config.workloads) ? (record.config.workloads as string[]) : [];
      insert.run({
        runId: record.runId,
        schemaVersion: record.schemaVersion,
        startedAt: record.startedAt,
        finishedAt: record.finishedAt,
        mode: record.mode,
        variants: JSON.stringify(record.variants.map((v) => v.name)),
        workloads: JSON.stringify(workloads),
        numMeasurements: measurements.length,
        allValid: measurements.length > 0 && measurements.every((m) => m.valid) ? 1 : 0,
        cancelled: record.cancelled ? 1 : 0,
        summary: JSON.stringify(measurements),
        record: JSON.stringify(record),
      });
    },

    list(options = {}) {
      const limit = Math.min(Math.max(1, Math.floor(options.limit ?? 100)), MAX_LIST_LIMIT);
      const offset = Math.max(0, Math.floor(options.offset ?? 0));
      return (selectList.all(limit, offset) as Row[]).map((row) => ({
        runId: row.run_id,
        schemaVersion: row.schema_version,
        startedAt: row.started_at,
        finishedAt: row.finished_at,
        mode: row.mode,
        variants: JSON.parse(row.variants) as string[],
        workloads: JSON.parse(row.workloads) as string[],
        numMeasurements: row.num_measurements,
        allValid: row.all_valid === 1,
        cancelled: row.cancelled === 1,
        measurements: JSON.parse(row.summary) as BenchRunMeasurementSummary[],
      }));
    },

    get(runId) {
      const row = selectRecord.get(runId) as { record: string; schema_version: number } | undefined;
      if (!row) return null;
      if (row.schema_version > BENCH_RUN_SCHEMA_VERSION) {
        throw new StudioError('unsupported', `bench run ${runId} has record schema ${row.schema_version} but this build reads up to ${BENCH_RUN_SCHEMA_VERSION}; update the studio to open it`, {
          runId,
          schemaVersion: row.schema_version,
        });
      }
      return JSON.parse(row.record) as BenchRunRecord;
    },

    delete(runId) {
      return deleteRun.run(runId).changes > 0;
    },
  };
}
