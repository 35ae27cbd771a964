/**
 * OrtStatus → StudioError: the ORT error code picks the studio code, the caller's context names
 * what was being done and the fix. Pure mapping; the adapter releases the status.
 */
import { StudioError, type ErrorCode } from '../../../../src-shared/errors';

/** OrtErrorCode values (onnxruntime_c_api.h enum OrtErrorCode). */
export const ORT_ERROR_NAMES = ['OK', 'FAIL', 'INVALID_ARGUMENT', 'NO_SUCHFILE', 'NO_MODEL', 'ENGINE_ERROR', 'RUNTIME_EXCEPTION', 'INVALID_PROTOBUF', 'MODEL_LOADED', 'NOT_IMPLEMENTED', 'INVALID_GRAPH', 'EP_FAIL'] as const;

export interface StatusContext {
  /** What the adapter was doing, e.g. "running session talker.onnx". */
  action: string;
  /** What the user or caller can do about it. */
  fix: string;
}

/**
 * CUDA errors that leave the context unusable ("sticky": every later call fails the same way), so the
 * engine must stop and its host restart: 700 illegal address, 719 launch failure, 999 unknown, and the
 * device-lost family. Seen on the H100/H200 when a captured CUDA graph replays (docs/benchmarks.md).
 */
const STICKY_CUDA_ERROR = /CUDA failure (700|701|702|714|715|716|717|718|719|720|999)\b|illegal memory access|unspecified launch failure|device.?lost/i;

export function studioCodeForOrtError(ortCode: number, message: string): ErrorCode {
  if (STICKY_CUDA_ERROR.test(message)) return 'device-lost';
  if (/failed to allocate|out of memory|cudaErrorMemoryAllocation/i.test(message)) return 'out-of-memory';
  // a provider whose libraries or device are missing: the run cannot happen here, whatever ORT's code
  if (/failed to load library|cannot open shared object|no supported adapters|failed to get a webgpu adapter/i.test(message)) return 'unsupported';
  switch (ORT_ERROR_NAMES[ortCode]) {
    case 'INVALID_ARGUMENT':
      return 'invalid-argument';
    case 'NO_SUCHFILE':
      return 'model-missing';
    case 'NO_MODEL':
    case 'INVALID_PROTOBUF':
    case 'INVALID_GRAPH':
      return 'model-invalid';
    case 'NOT_IMPLEMENTED':
    case 'EP_FAIL':
      return 'unsupported';
    default:
      return 'internal';
  }
}

export function studioErrorFromStatus(ortCode: number, message: string, ctx: StatusContext): StudioError {
  const name = ORT_ERROR_NAMES[ortCode] ?? `code ${ortCode}`;
  return new StudioError(studioCodeForOrtError(ortCode, message), `${ctx.action} failed (ORT ${name}): ${message}; ${ctx.fix}`, { ortCode: name });
}
