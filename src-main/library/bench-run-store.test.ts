// Round trip of bench runs through the library database in a temp folder: WAL, migrations, list/get/delete.
import { describe, expect, it } from 'vitest';
import type { BenchRunRecord } from '../bench/run-record';
import { createBenchRunStore } from './bench-run-store';
import { LIBRARY_MIGRATIONS, openLibraryDb } from './library-db';
import { tempDirs } from '../platform/testing/temp-dirs';

const tempDir = tempDirs('library-db-');

function record(runId: string, startedAt: string, valid: boolean): BenchRunRecord {
  return {
    schemaVersion: 1, runId, startedAt, finishedAt: startedAt, harnessVersion: 'h', harnessRevision: null, mode: 'closed',
    machine: { cpuModel: 'cpu', numCpuCores: 2, totalMemoryMiB: 1, platform: 'linux-x64', osRelease: '6', nodeVersion: 'v20', gpu: null },
    config: { workloads: ['plain'], clientCounts: [4] },
    variants: [{ name: 'before', description: null, targetName: 't', engineVersion: null, provider: null, modelHash: null, statusAvailable: true }],
    telemetry: { gpuAvailable: false, gpuNote: 'no NVIDIA GPU telemetry (nvidia-smi not found)', gpuIntervalMs: 250, statusIntervalMs: 50 },
    goldens: [], goldensIdenticalAcrossVariants: {}, inferenceHashes: [],
    measurements: [{ id: 'p1-before-plain-c4', kind: 'closed', pass: 1, variant: 'before', workload: 'plain', numClients: 4, reqPerS: 0.25, latency: { medianMs: 16485 }, valid } as never],
    bursts: [], ramps: [], openLoops: [], samples: { requests: [], status: [{ measurementId: 'x', tMs: 1, queueDepth: 4, numWaiting: 3, numRunning: 1 }], gpu: [] },
    caveats: ['c'], cancelled: false, errors: [],
  };
}

describe('bench run store', () => {
  it('saves, lists newest first, gets the full record back and deletes', () => {
    const dir = tempDir();
    const library = openLibraryDb(dir);
    const store = createBenchRunStore(library);
    store.save(record('20261025-133452-01ae7831', '2026-10-25T13:34:52.000Z', true));
    store.save(record('20261026-090000-aaaaaaaa', '2026-10-26T09:00:00.000Z', false));
    const list = store.list();
    expect(list.map((r) => r.runId)).toEqual(['20261026-090000-aaaaaaaa', '20261025-133452-01ae7831']);
    expect(list[1]).toMatchObject({ mode: 'closed', variants: ['before'], workloads: ['plain'], numMeasurements: 1, allValid: true, cancelled: false });
    expect(list[0].allValid).toBe(false);
    expect(list[1].measurements[0]).toEqual({ id: 'p1-before-plain-c4', kind: 'closed', pass: 1, variant: 'before', workload: 'plain', numClients: 4, reqPerS: 0.25, latencyMedianMs: 16485, valid: true });
    expect(store.get('20261025-133452-01ae7831')).toEqual(record('20261025-133452-01ae7831', '2026-10-25T13:34:52.000Z', true));
    expect(store.get('missing')).toBeNull();
    expect(store.delete('20261025-133452-01ae7831')).toBe(true);
    expect(store.delete('20261025-133452-01ae7831')).toBe(false);
    expect(store.list({ limit: 10 }).map((r) => r.runId)).toEqual(['20261026-090000-aaaaaaaa']);
    library.dispose();
  });

  it('opens in WAL mode, survives reopening and runs each migration once', () => {
    const dir = tempDir();
    const first = openLibraryDb(dir);
    expect(first.db.pragmaValue('journal_mode')).toBe('wal');
    createBenchRunStore(first).save(record('r1', '2026-01-01T00:00:00.000Z', true));
    first.dispose();
    let numRuns = 0;
    const nextVersion = LIBRARY_MIGRATIONS.length + 1;
    const extra = [...LIBRARY_MIGRATIONS, { version: nextVersion, name: 'test-extra', up: (db: import('./library-db').SqliteDatabase) => { numRuns += 1; db.exec('CREATE TABLE extra (id TEXT)'); } }];
    const second = openLibraryDb(dir, extra);
    const third = openLibraryDb(dir, extra);
    expect(numRuns).toBe(1);
    expect(second.version).toBe(nextVersion);
    expect(createBenchRunStore(second).get('r1')?.runId).toBe('r1');
    second.dispose();
    third.dispose();
    expect(() => openLibraryDb(dir)).toThrow(`schema version ${nextVersion} but this build knows ${LIBRARY_MIGRATIONS.length}`);
  });

  it('rejects a migration list whose versions are out of order', () => {
    expect(() => openLibraryDb(tempDir(), [{ version: 2, name: 'x', up() {} }])).toThrow(/versions must be 1, 2, 3/);
  });
});
