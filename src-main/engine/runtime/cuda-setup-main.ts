/**
 * Entry point of `npm run setup:cuda` (launched by src-main/cli/setup-cuda.mjs): parses --from,
 * runs setupCuda() against this checkout's onnxruntime-node, prints the problem and fix on failure.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setupCuda } from './cuda-setup';

const { values } = parseArgs({ options: { from: { type: 'string' } } });
const require = createRequire(import.meta.url);
const result = setupCuda({
  repoRoot: path.resolve(import.meta.dirname, '..', '..', '..'),
  ortPackageDir: path.dirname(require.resolve('onnxruntime-node/package.json')),
  from: values.from,
});
if (!result.ok && result.problem) {
  process.stderr.write(`setup:cuda: ${result.problem.what}\nfix: ${result.problem.fix}\n`);
  process.exit(1);
}
