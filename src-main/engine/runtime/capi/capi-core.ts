/**
 * The C-API adapter's core: one loaded ORT library (the core that onnxruntime-node ships) with its api
 * table, environment, default CPU allocator and memory info; OrtStatus checks → StudioError; calls on
 * koffi's worker thread (or the calling thread: STUDIO_CAPI_SYNC=1); and the count of every native
 * object the adapter holds (liveHandleCounts, a leak check for tests). The other capi-*.ts files use it.
 */
import path from 'node:path';
import { ortBinDir } from '../ort-install';
import { readString, type LoadedOrtApi, type OrtApiTable, type Ptr } from './ort-api';
import { studioErrorFromStatus, type StatusContext } from './ort-status';

type Kind = 'env' | 'session' | 'value' | 'ioBinding' | 'runOptions' | 'memoryInfo' | 'allocator';
/** Native objects created and not yet released, by kind; every file of the adapter counts into it. */
export const live: Record<Kind, number> = { env: 0, session: 0, value: 0, ioBinding: 0, runOptions: 0, memoryInfo: 0, allocator: 0 };

/** Native objects this adapter created and has not released, by kind (a leak check for tests). */
export function liveHandleCounts(): Readonly<Record<Kind, number>> {
  return { ...live };
}

/** ORT's log severity for errors only (OrtLoggingLevel ORT_LOGGING_LEVEL_ERROR). */
export const LOG_ERROR = 3;

/** The library the adapter loads: onnxruntime-node's own core, so both adapters run the same ORT. */
export function coreLibraryPath(): string {
  return path.join(ortBinDir(), process.platform === 'win32' ? 'onnxruntime.dll' : process.platform === 'darwin' ? 'libonnxruntime.1.dylib' : 'libonnxruntime.so.1');
}

/** One loaded library: the api table, the env, the default CPU allocator. */
export class CapiCore {
  readonly api: OrtApiTable;
  readonly env: Ptr;
  readonly allocator: Ptr;
  readonly cpuMemory: Ptr;
  /** Every call on the calling thread: STUDIO_CAPI_SYNC=1 (a diagnostic), or koffi's worker stacks could not be enlarged. */
  private readonly syncCalls: boolean;

  constructor(readonly loaded: LoadedOrtApi) {
    this.api = loaded.api;
    this.syncCalls = process.env.STUDIO_CAPI_SYNC === '1' || !loaded.asyncSafe;
    this.env = this.out((o) => this.api.CreateEnv(LOG_ERROR, 'studio', o), { action: 'creating the ORT environment', fix: 'reinstall onnxruntime-node (npm ci)' });
    live.env++;
    this.allocator = this.out((o) => this.api.GetAllocatorWithDefaultOptions(o), { action: 'getting the default allocator', fix: 'reinstall onnxruntime-node' });
    this.cpuMemory = this.out((o) => this.api.CreateCpuMemoryInfo(0, 0, o), { action: 'creating CPU memory info', fix: 'reinstall onnxruntime-node' });
    live.memoryInfo++;
  }

  /** Throws the StudioError for a non-NULL status (and releases it). */
  check(status: Ptr, ctx: StatusContext): void {
    if (!status) return;
    const code = this.api.GetErrorCode(status) as number;
    const message = this.api.GetErrorMessage(status) as string;
    this.api.ReleaseStatus(status);
    throw studioErrorFromStatus(code, message, ctx);
  }

  /** Calls an entry with one out-pointer and returns it. */
  out<T = Ptr>(call: (out: [T | null]) => Ptr, ctx: StatusContext): T {
    const o: [T | null] = [null];
    this.check(call(o), ctx);
    return o[0] as T;
  }

  /** Runs an entry on koffi's worker thread; resolves with its status checked. */
  async callAsync(fn: OrtApiTable[keyof OrtApiTable], args: unknown[], ctx: StatusContext): Promise<void> {
    if (this.syncCalls) return this.check(Reflect.apply(fn, null, args) as Ptr, ctx);
    const status = await new Promise<Ptr>((resolve, reject) => fn.async.apply(null, [...args, (err: Error | null, res: Ptr) => (err ? reject(err) : resolve(res))]));
    this.check(status, ctx);
  }

  /** Strings returned through the default allocator, read and freed. */
  takeString(ptr: Ptr): string {
    const s = readString(ptr);
    this.check(this.api.AllocatorFree(this.allocator, ptr), { action: 'freeing a string', fix: 'report this as a bug' });
    return s;
  }
}
