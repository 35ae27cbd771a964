/**
 * The facts provider selection reads from this machine (provider-select.ts plans over them): the
 * backends the onnxruntime-node build lists, GPU device nodes, a software Vulkan driver, and per
 * provider, as the provider table's `requires` asks, whether its setup installed it beside the core
 * and whether its runtime libraries load (CUDA 13, by full path). No provider names compared here.
 */
import fs from 'node:fs';
import { CUDA_PROVIDER_PACKAGES, describeMissingCuda, findCudaLibraries, providerPairsWithCore } from './cuda-libraries';
import { NODE_FS_VIEW } from './cuda-setup';
import { preloadLibraries } from './capi/cuda-preload';
import { nodeRuntime } from './node-runtime';
import { isProviderLibraryInstalled, listAvailableProviders } from './ort';
import { hasRequiredDevice, PROVIDER_NAMES, PROVIDERS, type ProviderCapabilities, type ProviderName } from './providers';

export interface ProviderProbe {
  platform: NodeJS.Platform;
  /** Backends this onnxruntime-node build lists (bundled or not). */
  backends: string[];
  /** Per provider installed by a setup step (providers.ts `requires.setup`): its library sits beside the core. Absent: not installed. */
  installed: Partial<Record<ProviderName, boolean>>;
  /** Per installed provider with runtime libraries (`requires.libraries`) whose device is here: why they cannot be used, or null when they loaded. */
  libraryProblems: Partial<Record<ProviderName, string | null>>;
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

/** How each kind of runtime library a provider needs (providers.ts `requires.libraries`) is checked. */
const LIBRARY_PROBES: Record<NonNullable<ProviderCapabilities['requires']['libraries']>, () => string | null> = {
  'cuda-13': () => probeCudaLibraries(nodeRuntime.version()),
};

export function probeProviders(): ProviderProbe {
  const exists = (p: string) => fs.existsSync(p);
  const renderNodes = exists('/dev/dri') ? fs.readdirSync('/dev/dri').filter((n) => n.startsWith('renderD')) : [];
  const machine = { platform: process.platform, hasNvidiaDevice: exists('/dev/nvidiactl'), hasRenderNode: renderNodes.length > 0 };
  const installed: ProviderProbe['installed'] = {};
  const libraryProblems: ProviderProbe['libraryProblems'] = {};
  for (const provider of PROVIDER_NAMES) {
    const { requires } = PROVIDERS[provider];
    if (requires.setup) installed[provider] = isProviderLibraryInstalled(provider);
    // the libraries are loaded only where the provider is installed and its device is here
    if (requires.libraries && (!requires.setup || installed[provider]) && hasRequiredDevice(requires.device, machine)) libraryProblems[provider] = LIBRARY_PROBES[requires.libraries]();
  }
  return {
    ...machine,
    backends: listAvailableProviders().map((b) => b.name),
    installed,
    libraryProblems,
    hasSoftwareVulkan: hasLavapipe(),
  };
}
