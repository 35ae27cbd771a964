/**
 * The engine host's insert worker threads: up to numWorkers worker_threads (started on first use)
 * that run insert tasks (insert-task.ts) one at a time each, queued in arrival order. A worker that
 * dies fails only its own task and is replaced on the next one. Owns the workers' lifetimes; what a
 * task does is insert-worker.ts. Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { StudioError } from '../../src-shared/errors';
import type { InsertTask, InsertTaskReply, InsertTaskResults } from './insert-task';

type TaskInput = InsertTask extends infer T ? (T extends InsertTask ? Omit<T, 'id'> : never) : never;

interface Pending {
  task: InsertTask;
  transfer: ArrayBuffer[];
  resolve(value: unknown): void;
  reject(error: StudioError): void;
}

/**
 * Starts one worker on insert-worker: beside this bundle when built (out/main/insert-worker.js, or one
 * folder up from a shared chunk), else the .ts source through tsx (tests, `tsx` runs).
 */
function startWorker(): Worker {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    const entry = pathToFileURL(path.join(path.dirname(here), 'insert-worker.ts')).href;
    // tsx's ESM build of its API (the package's "import" condition; require.resolve names the CommonJS one)
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
    return new Worker(`import(${JSON.stringify(tsx)}).then((m) => m.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`, { eval: true });
  }
  const candidates = [path.join(path.dirname(here), 'insert-worker.js'), path.join(path.dirname(here), '..', 'insert-worker.js')];
  return new Worker(candidates.find((c) => existsSync(c)) ?? candidates[0]);
}

export class InsertWorkers {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private disposed = false;

  constructor(
    private readonly numWorkers: number,
    private readonly log: (m: string) => void = () => {},
    private readonly start: () => Worker = startWorker,
  ) {}

  /** Runs a task on a worker; `transfer` moves those buffers to it (the caller must not use them after). */
  run<K extends InsertTask['kind']>(task: Extract<TaskInput, { kind: K }>, transfer: ArrayBuffer[] = []): Promise<InsertTaskResults[K]> {
    if (this.disposed) return Promise.reject(new StudioError('unavailable', 'the engine host is shutting down; retry on the restarted studio', { retryAfterS: 5 }));
    return new Promise((resolve, reject) => {
      this.queue.push({ task: { ...task, id: this.nextId++ } as InsertTask, transfer, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  /** Workers running now (for status and tests). */
  numStarted(): number {
    return this.idle.length + this.busy.size;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const gone = new StudioError('unavailable', 'the engine host is shutting down; retry on the restarted studio', { retryAfterS: 5 });
    for (const p of this.queue.splice(0)) p.reject(gone);
    for (const p of this.busy.values()) p.reject(gone);
    const workers = [...this.idle.splice(0), ...this.busy.keys()];
    this.busy.clear();
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.numStarted() < this.numWorkers ? this.spawn() : null);
      if (!worker) return;
      const next = this.queue.shift()!;
      this.busy.set(worker, next);
      worker.postMessage(next.task, next.transfer);
    }
  }

  private spawn(): Worker {
    const worker = this.start();
    worker.unref(); // an idle worker never keeps the host alive
    worker.on('message', (reply: InsertTaskReply) => {
      const pending = this.busy.get(worker);
      if (!pending || pending.task.id !== reply.id) return;
      this.busy.delete(worker);
      this.idle.push(worker);
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(StudioError.fromSerialized(reply.error));
      this.pump();
    });
    let ended = false;
    const lost = (why: string): void => {
      if (ended) return; // 'error' is followed by 'exit'
      ended = true;
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      if (this.disposed) return;
      this.log(`insert worker ${worker.threadId} ended: ${why}`);
      pending?.reject(new StudioError('internal', `an <audio> insert worker of the engine host ended (${why}) while it ran this request's ${pending.task.kind}; retry the request`, { retryAfterS: 1 }));
      this.pump();
    };
    worker.on('error', (err) => lost(err.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    return worker;
  }
}
