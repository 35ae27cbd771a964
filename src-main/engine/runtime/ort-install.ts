/**
 * Where onnxruntime-node's native files are on this machine. Both adapters load the one ONNX
 * Runtime core from here (node-runtime.ts through the binding, capi/ through koffi), so this sits
 * below ort.ts and capi/ and imports neither: capi/ never imports ort.ts, which loads capi/ lazily.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

/** The folder of the ONNX Runtime core that onnxruntime-node ships (both adapters load this one library). */
export function ortBinDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('onnxruntime-node/package.json')), 'bin', 'napi-v6', process.platform, process.arch);
}
