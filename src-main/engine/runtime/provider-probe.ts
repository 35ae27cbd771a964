/**
 * The facts provider selection reads from this machine (provider-select.ts plans over them): the
 * backends the onnxruntime-node build lists, whether the CUDA provider sits beside the core and its
 * CUDA 13 libraries load (by full path), GPU device nodes, and a software Vulkan driver.
 */
import fs from 'node:fs';
import { CUDA_PROVIDER_PACKAGES, describeMissingCuda, findCudaLibraries, providerPairsWithCore } from './cuda-libraries';
import { NODE_FS_VIEW } from './cuda-setup';
import { preloadLibraries } from './capi/cuda-preload';
import { nodeRuntime } from './node-runtime';
import { isProviderLibraryInstalled, listAvailableProviders } from './ort';

export interface ProviderProbe {
  platform: NodeJS.Platform;
  /** Backends this onnxruntime-node build lists (bundled or not). */
  backends: string[];
  cudaLibraryInstalled: boolean;
  /** Why the CUDA 13 libraries cannot be used (missing, failed to load, provider/core version mismatch), or null when they loaded. */
  cudaProblem: string | null;
  /** An NVIDIA device node (/dev/nvidiactl) or a DRM render node exists. */
  hasNvidiaDevice: boolean;
  hasRenderNode: boolean;
  /** A software Vulkan driver (Mesa lavapipe) is installed: WebGPU runs on the CPU, slower than the CPU provider. Optional: absent reads as false. */
  hasSoftwareVulkan?: boolean;
}

/**
 * Whether the CUDA provider can load: it pairs with the core's version, and the CUDA 13 libraries are
 * found and load (by full path, so the provider's dlopen finds them without LD_LIBRARY_PATH).
 */
export function probeCudaLibraries(coreVersion: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const platform = process.platform === 'win32' ? 'win32' : 'linux';
  const pkg = CUDA_PROVIDER_PACKAGES[platform];
  if (!providerPairsWithCore(pkg.ortVersion, coreVersion)) {
    return `the installed CUDA provider is built for ONNX Runtime ${pkg.ortVersion}, the core is ${coreVersion}; run 'npm ci' (onnxruntime-node is pinned to ${pkg.ortVersion}) then 'npm run setup:cuda'`;
  }
  const search = findCudaLibraries(platform, env, NODE_FS_VIEW);
  if (search.missing.length > 0) return describeMissingCuda(platform, search);
  const failed = preloadLibraries(Object.values(search.found));
  return failed ? `${failed}; check that the CUDA 13 libraries match the driver, or point STUDIO_CUDA_LIB_PATH elsewhere` : null;
}

/** Where Mesa's lavapipe (a Vulkan driver on the CPU) registers itself: lvp_icd.json (Mesa 25) or lvp_icd.<arch>.json (older). */
const VULKAN_ICD_DIRS = ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d'];

function hasLavapipe(): boolean {
  return VULKAN_ICD_DIRS.some((dir) => fs.existsSync(dir) && fs.readdirSync(dir).some((n) => n.startsWith('lvp_icd') && n.endsWith('.json')));
}

export function probeProviders(): ProviderProbe {
  const exists = (p: string) => fs.existsSync(p);
  const renderNodes = exists('/dev/dri') ? fs.readdirSync('/dev/dri').filter((n) => n.startsWith('renderD')) : [];
  const cudaLibraryInstalled = isProviderLibraryInstalled('cuda');
  const hasNvidiaDevice = exists('/dev/nvidiactl');
  return {
    platform: process.platform,
    backends: listAvailableProviders().map((b) => b.name),
    cudaLibraryInstalled,
    cudaProblem: cudaLibraryInstalled && hasNvidiaDevice ? probeCudaLibraries(nodeRuntime.version()) : null,
    hasNvidiaDevice,
    hasRenderNode: renderNodes.length > 0,
    hasSoftwareVulkan: hasLavapipe(),
  };
}
