/**
 * Where the CUDA provider and the CUDA 13 libraries it needs live, per platform: the npm package
 * `npm run setup:cuda` installs, the provider files it puts beside the ONNX Runtime core, the CUDA
 * library names, and the folders searched for them (STUDIO_CUDA_LIB_PATH, the loader path, system
 * folders, pip `nvidia-*` wheels). Pure path and name logic over an injected file system view.
 */
import path from 'node:path';

export type GpuPlatform = 'linux' | 'win32';

/** The registry package with ONNX Runtime's CUDA provider and the core version it was built for. */
export interface CudaProviderPackage {
  name: string;
  version: string;
  ortVersion: string;
  cudaMajor: number;
  /** The registry's sha512 integrity of the tarball (npm view <name>@<version> dist.integrity). */
  integrity: string;
  /** Folder inside the package (after `package/`) that holds the provider libraries. */
  libDir: string;
  /** Provider libraries copied beside the core (ORT loads providers from the core's own folder). */
  providerFiles: string[];
}

export const CUDA_PROVIDER_PACKAGES: Readonly<Record<GpuPlatform, CudaProviderPackage>> = {
  linux: {
    name: 'com.github.asus4.onnxruntime.linux-x64-gpu',
    version: '0.4.9',
    ortVersion: '1.29.0',
    cudaMajor: 13,
    integrity: 'sha512-FopIhNE/Ng+v2X65wVc9clPCBCvhvA53Hxo2U0Kf5fGdVsC7iCA+mZ0KLWggcQAj7TIZ6pNidR4AC10g74Xo6w==',
    libDir: 'Plugins/Linux/x64',
    providerFiles: ['libonnxruntime_providers_cuda.so', 'libonnxruntime_providers_shared.so'],
  },
  win32: {
    name: 'com.github.asus4.onnxruntime.win-x64-gpu',
    version: '0.4.9',
    ortVersion: '1.29.0',
    cudaMajor: 13,
    integrity: 'sha512-7NmfN9HPYqgjhUSxXBzcAuAI86oPldtmDDF1Ks2646YHU5E+X62fY6xKP/wfVLSUPCBib+4uo4OYnIKx8BxLNA==',
    libDir: 'Plugins/Windows/x64', // by analogy with the Linux package; the Windows tarball was not unpacked here
    providerFiles: ['onnxruntime_providers_cuda.dll', 'onnxruntime_providers_shared.dll'],
  },
};

/** One CUDA library the provider needs, by the file name the loader looks for, and what ships it. */
export interface CudaLibrary {
  file: string;
  /** The pip wheel of its CUDA 13 build (CUDA 13 wheels dropped the -cu13 suffix, cuDNN kept it), or null for the driver's own library. */
  wheel: string | null;
}

/**
 * The driver, CUDA 13 runtime, cuBLAS, cuRAND and cuDNN 9 files, in the order they are preloaded.
 * Linux: the provider's NEEDED entries (readelf -d libonnxruntime_providers_cuda.so of 1.29.0) plus
 * cuDNN, which it loads at run time.
 */
export function cudaLibraries(platform: GpuPlatform): CudaLibrary[] {
  return platform === 'linux'
    ? [
        { file: 'libcuda.so.1', wheel: null },
        { file: 'libcudart.so.13', wheel: 'nvidia-cuda-runtime' },
        { file: 'libcublasLt.so.13', wheel: 'nvidia-cublas' },
        { file: 'libcublas.so.13', wheel: 'nvidia-cublas' },
        { file: 'libcurand.so.10', wheel: 'nvidia-curand' },
        { file: 'libcudnn.so.9', wheel: 'nvidia-cudnn-cu13' },
      ]
    : [
        { file: 'nvcuda.dll', wheel: null },
        { file: 'cudart64_13.dll', wheel: 'nvidia-cuda-runtime' },
        { file: 'cublasLt64_13.dll', wheel: 'nvidia-cublas' },
        { file: 'cublas64_13.dll', wheel: 'nvidia-cublas' },
        { file: 'curand64_10.dll', wheel: 'nvidia-curand' },
        { file: 'cudnn64_9.dll', wheel: 'nvidia-cudnn-cu13' },
      ];
}

/** What the search needs to know of the machine (injected in tests). */
export interface FsView {
  exists(p: string): boolean;
  /** Entries of a folder, [] when it does not exist. */
  list(dir: string): string[];
}

/** Python site-packages folders where pip puts `nvidia-*` wheels. */
function sitePackageDirs(platform: GpuPlatform, env: NodeJS.ProcessEnv, fs: FsView): string[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  if (platform === 'win32') {
    const roots = [env.VIRTUAL_ENV, env.CONDA_PREFIX, env.LOCALAPPDATA && p.join(env.LOCALAPPDATA, 'Programs', 'Python')].filter((r): r is string => !!r);
    const dirs: string[] = [];
    for (const r of roots) {
      dirs.push(p.join(r, 'Lib', 'site-packages'));
      for (const py of fs.list(r).filter((n) => /^Python3\d+$/i.test(n))) dirs.push(p.join(r, py, 'Lib', 'site-packages'));
    }
    return dirs;
  }
  const roots = [env.VIRTUAL_ENV, env.CONDA_PREFIX, env.HOME && p.join(env.HOME, '.local'), '/usr/local', '/usr', '/opt/conda'].filter((r): r is string => !!r);
  const dirs: string[] = [];
  for (const r of roots) {
    const lib = p.join(r, 'lib');
    for (const py of fs.list(lib).filter((n) => /^python3(\.\d+)?$/.test(n))) {
      dirs.push(p.join(lib, py, 'site-packages'), p.join(lib, py, 'dist-packages'));
    }
  }
  return dirs;
}

/** The `nvidia/<pkg>/lib` (Linux) or `nvidia/<pkg>/bin` (Windows) folders of pip wheels, CUDA 13's `nvidia/cu13/lib` included. */
function wheelDirs(platform: GpuPlatform, env: NodeJS.ProcessEnv, fs: FsView): string[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const sub = platform === 'win32' ? ['bin', p.join('bin', 'x64')] : ['lib'];
  const dirs: string[] = [];
  for (const site of sitePackageDirs(platform, env, fs)) {
    const nvidia = p.join(site, 'nvidia');
    for (const pkg of fs.list(nvidia)) for (const s of sub) dirs.push(p.join(nvidia, pkg, s));
  }
  return dirs;
}

/**
 * The folders searched for CUDA libraries, in order: STUDIO_CUDA_LIB_PATH, the loader path
 * (LD_LIBRARY_PATH / PATH), the toolkit (CUDA_PATH, /usr/local/cuda*), the system library folders,
 * then pip wheels. Only folders that exist are returned, each once.
 */
export function cudaSearchDirs(platform: GpuPlatform, env: NodeJS.ProcessEnv, fs: FsView): string[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const split = (v: string | undefined) => (v ? v.split(platform === 'win32' ? ';' : ':').filter(Boolean) : []);
  let dirs = split(env.STUDIO_CUDA_LIB_PATH);
  if (platform === 'linux') {
    dirs = dirs.concat(split(env.LD_LIBRARY_PATH));
    const cudaRoots = ['/usr/local/cuda', ...fs.list('/usr/local').filter((n) => /^cuda-13(\.\d+)*$/.test(n)).sort().reverse().map((n) => p.join('/usr/local', n))];
    if (env.CUDA_PATH) cudaRoots.unshift(env.CUDA_PATH);
    for (const r of cudaRoots) dirs.push(p.join(r, 'lib64'), p.join(r, 'targets', 'x86_64-linux', 'lib'));
    dirs.push('/usr/local/nvidia/lib64', '/usr/lib/x86_64-linux-gnu', '/usr/lib64', '/usr/local/lib');
  } else {
    if (env.SystemRoot) dirs.push(p.join(env.SystemRoot, 'System32'));
    if (env.CUDA_PATH) dirs.push(p.join(env.CUDA_PATH, 'bin'), p.join(env.CUDA_PATH, 'bin', 'x64'));
    dirs = dirs.concat(split(env.PATH ?? env.Path));
  }
  dirs = dirs.concat(wheelDirs(platform, env, fs));
  return [...new Set(dirs)].filter((d) => fs.exists(d));
}

export interface CudaLibrarySearch {
  /** Library file → the full path found first. */
  found: Record<string, string>;
  missing: CudaLibrary[];
  searched: string[];
}

export function findCudaLibraries(platform: GpuPlatform, env: NodeJS.ProcessEnv, fs: FsView): CudaLibrarySearch {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const searched = cudaSearchDirs(platform, env, fs);
  const found: Record<string, string> = {};
  const missing: CudaLibrary[] = [];
  for (const lib of cudaLibraries(platform)) {
    const dir = searched.find((d) => fs.exists(p.join(d, lib.file)));
    if (dir) found[lib.file] = p.join(dir, lib.file);
    else missing.push(lib);
  }
  return { found, missing, searched };
}

/** Says exactly what is missing and how to get it. */
export function describeMissingCuda(platform: GpuPlatform, search: CudaLibrarySearch): string {
  const wheels = [...new Set(search.missing.flatMap((m) => (m.wheel ? [m.wheel] : [])))];
  const driverMissing = search.missing.some((m) => m.wheel === null);
  const where = search.searched.length ? search.searched.join(platform === 'win32' ? '; ' : ':') : 'no candidate folder exists';
  const fixes = [
    ...(driverMissing ? ['install the NVIDIA driver (it provides ' + search.missing.filter((m) => m.wheel === null).map((m) => m.file).join(', ') + ')'] : []),
    ...(wheels.length ? [`install the CUDA 13 toolkit and cuDNN 9 or 'pip install ${wheels.join(' ')}'`] : []),
    'or point STUDIO_CUDA_LIB_PATH at the folder that holds them',
  ];
  return `CUDA 13 libraries not found: ${search.missing.map((m) => m.file).join(', ')} (searched ${where}); ${fixes.join(', ')}`;
}

/** Where setup:cuda keeps the provider package (.cache/ is ignored by git and kept across `npm ci`). */
export function cudaInstallDir(repoRoot: string, platform: GpuPlatform): string {
  const pkg = CUDA_PROVIDER_PACKAGES[platform];
  return path.join(repoRoot, '.cache', 'ort-cuda', `${pkg.name}-${pkg.version}`);
}

/** Whether a provider package built for ORT `ortVersion` pairs with this core version (same major.minor.patch). */
export function providerPairsWithCore(ortVersion: string, coreVersion: string): boolean {
  return ortVersion === coreVersion;
}
