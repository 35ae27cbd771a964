/**
 * Machine probes for provider tests: a Linux box whose onnxruntime-node lists the GPU backends but that has
 * no GPU and no provider installed. Tests spread it and change what their case needs.
 */
import type { ProviderProbe } from '../runtime/provider-probe';

export const LINUX_NO_GPU: ProviderProbe = {
  platform: 'linux',
  backends: ['cpu', 'webgpu', 'cuda', 'tensorrt'],
  installed: {},
  libraryProblems: {},
  hasNvidiaDevice: false,
  hasRenderNode: false,
};
