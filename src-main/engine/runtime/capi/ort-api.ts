/**
 * ORT's C API, reached through koffi: the OrtApi function table of the libonnxruntime.so.1 that
 * onnxruntime-node ships. The table is append-only across versions; the indices below are this
 * project's own list of the entries it uses, counted from the header's order (entries up to API
 * version 23, CopyTensors; checked at load time by calls whose answers are known, see verifyTable).
 */
import fs from 'node:fs';
import { configuredKoffi } from './koffi-config';

/** OrtApi version requested from OrtGetApiBase().GetApi; 23 (ONNX Runtime 1.23) covers every entry below. */
export const ORT_API_VERSION = 23;

/** Pointers are BigInt in koffi; 0n is NULL. */
export type Ptr = bigint | null;
type Out<T> = [T];

// Entry index in struct OrtApi → the signature this adapter calls it with (OrtStatus* is returned as a pointer).
const ENTRIES = {
  CreateStatus: [0, 'void *(int code, const char *msg)'],
  GetErrorCode: [1, 'int (void *status)'],
  GetErrorMessage: [2, 'const char *(void *status)'],
  CreateEnv: [3, 'void *(int level, const char *logid, _Out_ void **out)'],
  CreateSession: [7, 'void *(void *env, const char *path, void *options, _Out_ void **out)'],
  CreateSessionFromArray: [8, 'void *(void *env, const void *data, size_t len, void *options, _Out_ void **out)'],
  Run: [9, 'void *(void *session, void *runOptions, const char **inputNames, void **inputs, size_t inputLen, const char **outputNames, size_t outputLen, _Inout_ void **outputs)'],
  CreateSessionOptions: [10, 'void *(_Out_ void **out)'],
  EnableProfiling: [14, 'void *(void *options, const char *prefix)'],
  SetSessionLogSeverityLevel: [22, 'void *(void *options, int level)'],
  SetSessionGraphOptimizationLevel: [23, 'void *(void *options, int level)'],
  SetIntraOpNumThreads: [24, 'void *(void *options, int n)'],
  SessionGetInputCount: [30, 'void *(void *session, _Out_ size_t *out)'],
  SessionGetOutputCount: [31, 'void *(void *session, _Out_ size_t *out)'],
  SessionGetInputName: [36, 'void *(void *session, size_t index, void *allocator, _Out_ void **out)'],
  SessionGetOutputName: [37, 'void *(void *session, size_t index, void *allocator, _Out_ void **out)'],
  CreateRunOptions: [39, 'void *(_Out_ void **out)'],
  CreateTensorAsOrtValue: [48, 'void *(void *allocator, const int64_t *shape, size_t shapeLen, int type, _Out_ void **out)'],
  CreateTensorWithDataAsOrtValue: [49, 'void *(void *info, void *data, size_t bytes, const int64_t *shape, size_t shapeLen, int type, _Out_ void **out)'],
  GetTensorMutableData: [51, 'void *(void *value, _Out_ void **out)'],
  GetTensorElementType: [60, 'void *(void *info, _Out_ int *out)'],
  GetDimensionsCount: [61, 'void *(void *info, _Out_ size_t *out)'],
  GetDimensions: [62, 'void *(void *info, _Out_ int64_t *dims, size_t len)'],
  GetTensorTypeAndShape: [65, 'void *(void *value, _Out_ void **out)'],
  CreateMemoryInfo: [68, 'void *(const char *name, int allocatorType, int id, int memType, _Out_ void **out)'],
  CreateCpuMemoryInfo: [69, 'void *(int allocatorType, int memType, _Out_ void **out)'],
  CompareMemoryInfo: [70, 'void *(void *a, void *b, _Out_ int *out)'],
  MemoryInfoGetName: [71, 'void *(void *info, _Out_ const char **out)'],
  AllocatorFree: [76, 'void *(void *allocator, void *p)'],
  GetAllocatorWithDefaultOptions: [78, 'void *(_Out_ void **out)'],
  ReleaseEnv: [92, 'void (void *p)'],
  ReleaseStatus: [93, 'void (void *p)'],
  ReleaseMemoryInfo: [94, 'void (void *p)'],
  ReleaseSession: [95, 'void (void *p)'],
  ReleaseValue: [96, 'void (void *p)'],
  ReleaseRunOptions: [97, 'void (void *p)'],
  ReleaseTensorTypeAndShapeInfo: [99, 'void (void *p)'],
  ReleaseSessionOptions: [100, 'void (void *p)'],
  SessionEndProfiling: [110, 'void *(void *session, void *allocator, _Out_ void **out)'],
  GetAvailableProviders: [125, 'void *(_Out_ void **out, _Out_ int *len)'],
  ReleaseAvailableProviders: [126, 'void *(void *ptr, int len)'],
  AddSessionConfigEntry: [130, 'void *(void *options, const char *key, const char *value)'],
  CreateAllocator: [131, 'void *(void *session, void *memInfo, _Out_ void **out)'],
  ReleaseAllocator: [132, 'void (void *p)'],
  RunWithBinding: [133, 'void *(void *session, void *runOptions, void *binding)'],
  CreateIoBinding: [134, 'void *(void *session, _Out_ void **out)'],
  ReleaseIoBinding: [135, 'void (void *p)'],
  BindInput: [136, 'void *(void *binding, const char *name, void *value)'],
  BindOutput: [137, 'void *(void *binding, const char *name, void *value)'],
  BindOutputToDevice: [138, 'void *(void *binding, const char *name, void *memInfo)'],
  GetBoundOutputValues: [140, 'void *(void *binding, void *allocator, _Out_ void **out, _Out_ size_t *count)'],
  ClearBoundInputs: [141, 'void (void *binding)'],
  ClearBoundOutputs: [142, 'void (void *binding)'],
  AddRunConfigEntry: [165, 'void *(void *options, const char *key, const char *value)'],
  SessionOptionsAppendExecutionProvider_CUDA_V2: [204, 'void *(void *options, void *cudaOptions)'],
  CreateCUDAProviderOptions: [205, 'void *(_Out_ void **out)'],
  UpdateCUDAProviderOptions: [206, 'void *(void *cudaOptions, const char **keys, const char **values, size_t n)'],
  GetTensorMemoryInfo: [194, 'void *(void *value, _Out_ void **out)'],
  ReleaseCUDAProviderOptions: [208, 'void (void *p)'],
  SessionOptionsAppendExecutionProvider: [216, 'void *(void *options, const char *provider, const char **keys, const char **values, size_t n)'],
  SessionGetMemoryInfoForInputs: [380, 'void *(void *session, _Inout_ void **infos, size_t n)'],
  SessionGetMemoryInfoForOutputs: [381, 'void *(void *session, _Inout_ void **infos, size_t n)'],
  CopyTensors: [386, 'void *(void *env, void **src, void **dst, void *stream, size_t n)'],
} as const;

export type EntryName = keyof typeof ENTRIES;
// koffi functions take positional arguments of mixed JS types; the adapter passes what each signature above names.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type NativeFn = ((...args: any[]) => any) & { async: (...args: any[]) => void };
export type OrtApiTable = Record<EntryName, NativeFn>;

export interface LoadedOrtApi {
  api: OrtApiTable;
  version: string;
  libraryPath: string;
  /** Whether calls may run on koffi's worker threads (their stacks were made large enough). */
  asyncSafe: boolean;
}

/** Loads the library, asks for the OrtApi table and declares every entry of ENTRIES on it. */
export function loadOrtApi(libraryPath: string): LoadedOrtApi {
  const { koffi, asyncSafe } = configuredKoffi();
  const lib = koffi.load(libraryPath);
  const getApiBase = lib.func('void *OrtGetApiBase()');
  const base = getApiBase() as Ptr;
  if (!base) throw new Error(`OrtGetApiBase() returned NULL in ${libraryPath}`);
  const [getApi, getVersion] = koffi.decode(base, koffi.array('void *', 2)) as [Ptr, Ptr];
  const version = koffi.call(getVersion, koffi.proto('const char *(void)')) as string;
  const table = koffi.call(getApi, koffi.proto('void *(uint32_t)'), ORT_API_VERSION) as Ptr;
  if (!table) throw new Error(`ONNX Runtime ${version} at ${libraryPath} does not offer C API version ${ORT_API_VERSION}`);
  const count = Object.values(ENTRIES).reduce((m, [i]) => Math.max(m, i), 0) + 1;
  const slots = koffi.decode(table, koffi.array('void *', count)) as Ptr[];
  const api = {} as OrtApiTable;
  const trace = process.env.STUDIO_CAPI_TRACE === '1';
  for (const [name, [index, signature]] of Object.entries(ENTRIES)) {
    const fn = koffi.decode(slots[index], koffi.proto(signature)) as NativeFn;
    api[name as EntryName] = trace ? traced(name, fn) : fn;
  }
  verifyTable(api);
  return { api, version, libraryPath, asyncSafe };
}

/**
 * STUDIO_CAPI_TRACE=1: every call is written to stderr before it is made (synchronously, so the
 * last line before a native crash names the call that crashed).
 */
function traced(name: string, fn: NativeFn): NativeFn {
  const t = ((...args: unknown[]) => {
    fs.writeSync(2, `capi> ${name}\n`);
    return Reflect.apply(fn, null, args);
  }) as NativeFn;
  t.async = (...args: unknown[]) => {
    fs.writeSync(2, `capi> ${name} (async)\n`);
    Reflect.apply(fn.async, null, args);
  };
  return t;
}

/** Calls with known answers: a table counted wrongly fails here, not later with a crash. */
function verifyTable(api: OrtApiTable): void {
  const status = api.CreateStatus(2, 'probe') as Ptr;
  const ok = api.GetErrorCode(status) === 2 && api.GetErrorMessage(status) === 'probe';
  api.ReleaseStatus(status);
  const info: Out<Ptr> = [null];
  api.CreateCpuMemoryInfo(0, 0, info);
  const name: Out<string | null> = [null];
  api.MemoryInfoGetName(info[0], name);
  api.ReleaseMemoryInfo(info[0]);
  if (!ok || name[0] !== 'Cpu') throw new Error('the OrtApi table does not match this adapter\'s entry list (status or memory-info probe failed)');
}

/** Reads n pointers from a native array. */
export function readPointers(ptr: Ptr, n: number): Ptr[] {
  const { koffi } = configuredKoffi();
  return n === 0 ? [] : (koffi.decode(ptr, koffi.array('void *', n)) as Ptr[]);
}

export function readString(ptr: Ptr): string {
  return configuredKoffi().koffi.decode.string(ptr);
}

/** An ArrayBuffer over native memory (no copy); valid while its owner lives. */
export function nativeView(ptr: Ptr, byteLength: number): ArrayBuffer {
  return configuredKoffi().koffi.view(ptr, byteLength);
}
