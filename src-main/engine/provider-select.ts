/**
 * Chooses the execution provider: an explicit choice is checked, 'auto' ranks what this machine
 * can run (CUDA > DirectML > WebGPU > CPU) and says why each was taken or skipped. Pure planning
 * over a ProviderProbe; probeProviders() gathers the facts (ORT backends, the CUDA provider beside the
 * core and the CUDA 13 libraries it needs, loaded by full path, device nodes).
 * The engine tries the planned candidates in order and falls back when a session fails to start.
 */
import fs from 'node:fs';
import { StudioError } from '../../src-shared/errors';
import type { BuildDtype } from '../model-format/manifest';
import type { ProviderChoice } from './engine-config';
import { CUDA_PROVIDER_PACKAGES, describeMissingCuda, findCudaLibraries, providerPairsWithCore } from './runtime/cuda-libraries';
import { NODE_FS_VIEW } from './runtime/cuda-setup';
import { preloadLibraries } from './runtime/capi/cuda-preload';
import { nodeRuntime } from './runtime/node-runtime';
import { isProviderLibraryInstalled, listAvailableProviders, type ProviderName } from './runtime/ort';

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

export interface ProviderCandidate {
  provider: ProviderName;
  reason: string;
  /** The build dtype this provider runs best: fp16 on GPU providers, fp32 on CPU (createEngine uses that build when it exists). */
  preferredDtype: BuildDtype;
}

/** fp16 graphs on GPU providers (half the weight bytes per frame), fp32 on CPU (MLAS is fp32; fp16 runs but converts). */
export function preferredDtype(provider: ProviderName): BuildDtype {
  return provider === 'cpu' ? 'fp32' : 'fp16';
}

export interface ProviderPlan {
  candidates: ProviderCandidate[];
  /** Why the providers not in `candidates` were skipped. */
  skipped: string[];
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

/** Why `provider` cannot run here, or null when it can (every provider runs fp32 and fp16 builds; CPU runs fp16 slower). */
function unavailableReason(provider: ProviderName, probe: ProviderProbe, _dtype: BuildDtype, explicit: boolean): string | null {
  if (provider !== 'cpu' && !probe.backends.includes(provider)) return `${provider}: not in this onnxruntime-node build (${probe.backends.join(', ')})`;
  switch (provider) {
    case 'cpu':
      return null;
    case 'cuda':
      if (!probe.cudaLibraryInstalled) return "cuda: the CUDA provider (libonnxruntime_providers_cuda.so) is not installed; run 'npm run setup:cuda'";
      if (!probe.hasNvidiaDevice) return 'cuda: no NVIDIA device (/dev/nvidiactl missing)';
      return probe.cudaProblem ? `cuda: ${probe.cudaProblem}` : null;
    case 'dml':
      return probe.platform === 'win32' ? null : `dml: DirectML exists on Windows only (this is ${probe.platform})`;
    case 'webgpu':
      if (probe.platform === 'win32' || probe.platform === 'darwin') return null;
      if (probe.hasNvidiaDevice || probe.hasRenderNode) return null;
      if (probe.hasSoftwareVulkan) return explicit ? null : 'webgpu: only a software Vulkan driver (lavapipe), slower than the CPU provider; ask for webgpu explicitly to use it';
      return 'webgpu: no GPU device node (/dev/dri/renderD*, /dev/nvidiactl)';
  }
}

/**
 * 'auto' order, from the H200 runs (docs/benchmarks.md, "The four engines on the H200"): WebGPU one stream at
 * RTF 0.81 and batch-invariant; CUDA (even with CUDA graphs) at RTF 1.79 and 1 LSB off beside batch-mates, so
 * it comes after WebGPU until its codec and loop graphs run wholly on CUDA. DirectML keeps its place before
 * WebGPU on Windows (not measured against each other).
 */
const AUTO_ORDER: ProviderName[] = ['dml', 'webgpu', 'cuda', 'cpu'];

export function planProviders(choice: ProviderChoice, probe: ProviderProbe, dtype: BuildDtype): ProviderPlan {
  if (choice !== 'auto') {
    const reason = unavailableReason(choice, probe, dtype, true);
    if (reason) {
      throw new StudioError('unsupported', `provider '${choice}' cannot run here: ${reason}; pick another provider or 'auto'`, {
        field: 'provider',
        validValues: AUTO_ORDER.filter((p) => unavailableReason(p, probe, dtype, true) === null),
      });
    }
    return { candidates: [{ provider: choice, reason: `requested explicitly (${dtype} graphs)`, preferredDtype: preferredDtype(choice) }], skipped: [] };
  }
  const candidates: ProviderCandidate[] = [];
  const skipped: string[] = [];
  for (const provider of AUTO_ORDER) {
    const reason = unavailableReason(provider, probe, dtype, false);
    if (reason) skipped.push(reason);
    else candidates.push({ provider, reason: `auto: best available of ${AUTO_ORDER.join(' > ')}; skipped: ${skipped.join('; ') || 'none'}`, preferredDtype: preferredDtype(provider) });
  }
  if (candidates.length === 0) {
    throw new StudioError('unsupported', `no execution provider can run this ${dtype} model: ${skipped.join('; ')}`, { field: 'provider' });
  }
  return { candidates, skipped };
}
