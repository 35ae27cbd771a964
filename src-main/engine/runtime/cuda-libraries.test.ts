// CUDA library search over fake file systems: STUDIO_CUDA_LIB_PATH first, pip wheel folders (CUDA 13's
// nvidia/cu13/lib too), the toolkit, Windows paths, the "what is missing" message, version pairing.
import { describe, expect, it } from 'vitest';
import { CUDA_PROVIDER_PACKAGES, cudaInstallDir, cudaLibraries, cudaSearchDirs, describeMissingCuda, findCudaLibraries, providerPairsWithCore, type FsView } from './cuda-libraries';

/** A file system of the given files; folders are every parent of a file. */
function fakeFs(files: string[], sep = '/'): FsView {
  const dirs = new Map<string, Set<string>>();
  for (const f of files) {
    const parts = f.split(sep);
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join(sep) || sep;
      if (!dirs.has(dir)) dirs.set(dir, new Set());
      dirs.get(dir)!.add(parts[i]);
    }
  }
  const set = new Set(files);
  return { exists: (p) => set.has(p) || dirs.has(p), list: (d) => [...(dirs.get(d) ?? [])] };
}

const LINUX_LIBS = cudaLibraries('linux').map((l) => l.file);

describe('CUDA library search (Linux)', () => {
  it('finds every library in a pip CUDA 13 wheel folder and the driver in the system folder', () => {
    const site = '/home/u/.local/lib/python3.12/site-packages/nvidia';
    const fs = fakeFs([
      '/usr/lib/x86_64-linux-gnu/libcuda.so.1',
      ...['libcudart.so.13', 'libcublasLt.so.13', 'libcublas.so.13', 'libcurand.so.10'].map((f) => `${site}/cu13/lib/${f}`),
      `${site}/cudnn/lib/libcudnn.so.9`,
    ]);
    const r = findCudaLibraries('linux', { HOME: '/home/u' }, fs);
    expect(r.missing).toEqual([]);
    expect(r.found['libcublas.so.13']).toBe(`${site}/cu13/lib/libcublas.so.13`);
    expect(r.found['libcudnn.so.9']).toBe(`${site}/cudnn/lib/libcudnn.so.9`);
    expect(Object.keys(r.found)).toEqual(LINUX_LIBS);
  });

  it('searches STUDIO_CUDA_LIB_PATH before everything else and skips folders that do not exist', () => {
    const fs = fakeFs([...LINUX_LIBS.map((f) => `/opt/mine/${f}`), ...LINUX_LIBS.map((f) => `/usr/local/cuda/lib64/${f}`)]);
    const dirs = cudaSearchDirs('linux', { STUDIO_CUDA_LIB_PATH: '/nope:/opt/mine', LD_LIBRARY_PATH: '/usr/local/cuda/lib64' }, fs);
    expect(dirs[0]).toBe('/opt/mine');
    expect(dirs).not.toContain('/nope');
    expect(findCudaLibraries('linux', { STUDIO_CUDA_LIB_PATH: '/opt/mine' }, fs).found['libcudart.so.13']).toBe('/opt/mine/libcudart.so.13');
  });

  it('finds a versioned toolkit folder (/usr/local/cuda-13.1)', () => {
    const fs = fakeFs(LINUX_LIBS.map((f) => `/usr/local/cuda-13.1/lib64/${f}`));
    expect(findCudaLibraries('linux', {}, fs).missing).toEqual([]);
  });

  it('says exactly what is missing, where it looked and how to get it', () => {
    const fs = fakeFs(['/usr/local/cuda/lib64/libcudart.so.13']);
    const r = findCudaLibraries('linux', {}, fs);
    expect(r.missing.map((m) => m.file)).toEqual(['libcuda.so.1', 'libcublasLt.so.13', 'libcublas.so.13', 'libcurand.so.10', 'libcudnn.so.9']);
    const msg = describeMissingCuda('linux', r);
    expect(msg).toMatch(/^CUDA 13 libraries not found: libcuda\.so\.1, libcublasLt\.so\.13/);
    expect(msg).toContain('searched /usr/local/cuda/lib64');
    expect(msg).toContain('install the NVIDIA driver (it provides libcuda.so.1)');
    expect(msg).toContain("pip install nvidia-cublas nvidia-curand nvidia-cudnn-cu13'");
    expect(msg).toContain('STUDIO_CUDA_LIB_PATH');
  });
});

describe('CUDA library search (Windows)', () => {
  it('finds DLLs in CUDA_PATH\\bin\\x64 and pip wheel bin folders, and uses ; as the separator', () => {
    const fs = fakeFs(
      [
        'C:\\Windows\\System32\\nvcuda.dll',
        ...['cudart64_13.dll', 'cublasLt64_13.dll', 'cublas64_13.dll', 'curand64_10.dll'].map((f) => `C:\\CUDA\\v13.0\\bin\\x64\\${f}`),
        'C:\\venv\\Lib\\site-packages\\nvidia\\cudnn\\bin\\cudnn64_9.dll',
      ],
      '\\',
    );
    const r = findCudaLibraries('win32', { CUDA_PATH: 'C:\\CUDA\\v13.0', SystemRoot: 'C:\\Windows', VIRTUAL_ENV: 'C:\\venv', STUDIO_CUDA_LIB_PATH: 'D:\\x;C:\\nope' }, fs);
    expect(r.missing).toEqual([]);
    expect(r.found['cublas64_13.dll']).toBe('C:\\CUDA\\v13.0\\bin\\x64\\cublas64_13.dll');
    expect(r.found['cudnn64_9.dll']).toBe('C:\\venv\\Lib\\site-packages\\nvidia\\cudnn\\bin\\cudnn64_9.dll');
  });

  it('names the Windows provider package and its DLLs', () => {
    expect(CUDA_PROVIDER_PACKAGES.win32.name).toBe('com.github.asus4.onnxruntime.win-x64-gpu');
    expect(CUDA_PROVIDER_PACKAGES.win32.providerFiles).toContain('onnxruntime_providers_cuda.dll');
  });
});

describe('provider package', () => {
  it('pairs only with the core version it was built for', () => {
    expect(providerPairsWithCore(CUDA_PROVIDER_PACKAGES.linux.ortVersion, '1.29.0')).toBe(true);
    expect(providerPairsWithCore(CUDA_PROVIDER_PACKAGES.linux.ortVersion, '1.30.0')).toBe(false);
  });

  it('installs into an ignored folder named by package and version', () => {
    expect(cudaInstallDir('/repo', 'linux')).toBe('/repo/.cache/ort-cuda/com.github.asus4.onnxruntime.linux-x64-gpu-0.4.9');
  });
});
