// electron-vite build of the three Electron bundles. The main bundle also carries the engine host
// process entry (and its insert worker's) and the CLI, so `npm run build` produces everything the app and `studio` need.
// Native modules (onnxruntime-node, better-sqlite3) stay external and load from node_modules.
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rollupOptions: {
        input: {
          main: resolve(__dirname, 'src-main/main.ts'),
          'engine-host': resolve(__dirname, 'src-main/engine-host.ts'),
          // the engine host's <audio> insert worker threads (engine-host/insert-workers.ts finds it beside engine-host.js)
          'insert-worker': resolve(__dirname, 'src-main/engine-host/insert-worker.ts'),
          cli: resolve(__dirname, 'src-main/cli/cli.ts'),
        },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { preload: resolve(__dirname, 'src-preload/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // Minified, and split: Speak (the home) is the entry chunk; other areas and their heavy
      // libraries (CodeMirror, wavesurfer, recharts) load on first open (lazy() in area-panels).
      minify: true,
      cssMinify: true,
      sourcemap: false,
      rollupOptions: { input: resolve(__dirname, 'src-renderer/index.html') },
    },
  },
});
