/**
 * The provider options that put a session on device N, per adapter, by the provider's pinning
 * capability (providers.ts); pure. Facts from
 * microsoft/onnxruntime, checked against the bundled 1.29.0 library's option strings:
 * - DirectML: `device_id` on the C API (DMLProviderFactoryCreator::CreateFromProviderOptions, the
 *   adapter index in IDXGIFactory::EnumAdapters1 order); `deviceId` on the node binding.
 * - CUDA: `device_id` (OrtCUDAProviderOptionsV2) / `deviceId` (binding). The engine pool pins CUDA
 *   with CUDA_VISIBLE_DEVICES instead, so each host sees its GPU as device 0.
 * - WebGPU: none. Its `deviceId` is a WebGPU context id (a non-zero one needs the caller's own Dawn
 *   instance, adapter and device handles) and the adapter is Dawn's high-performance pick; ORT
 *   after 1.29 adds `adapterIndex` (webgpu_provider_options.h), which 1.29.0 does not know.
 */
import { StudioError } from '../../../src-shared/errors';
import { PROVIDERS, type ProviderName } from './providers';
import type { RuntimeName } from './runtime';

/** Options for `provider` on `runtime` that select device `deviceIndex` (< 0: the provider's own choice). */
export function pinnedProviderOptions(provider: ProviderName, deviceIndex: number, runtime: RuntimeName): Record<string, string | number> {
  const pinning = PROVIDERS[provider].pinning;
  if (deviceIndex < 0 || pinning === 'none') return {};
  if (pinning === 'option') return runtime === 'node' ? { deviceId: deviceIndex } : { device_id: String(deviceIndex) };
  if (deviceIndex === 0) return {}; // the adapter the provider picks by itself
  throw new StudioError(
    'unsupported',
    `WebGPU cannot be pinned to adapter ${deviceIndex}: ONNX Runtime 1.29's WebGPU provider always takes Dawn's high-performance adapter (its deviceId is a context id, not an adapter); run one webgpu engine, or use --provider dml (Windows) or cuda (NVIDIA) for one engine per GPU`,
    { field: 'deviceIndex', value: deviceIndex },
  );
}
