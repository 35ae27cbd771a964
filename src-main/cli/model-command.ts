/**
 * `studio model`: synth (synthetic checkpoints), build (compile a checkpoint to ONNX graphs),
 * inspect (print a built model's manifest), and the model manager's pull / list / remove / verify.
 * Thin: every subcommand calls one exported service function with a progress bar.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { buildModel, inspectModel } from '../model-builder/build';
import { DEFAULT_GRAPH_OPS } from '../model-format/built-model';
import { GRAPH_OPS, type GraphOps } from '../model-format/onnx/graph-builder';
import { writeSyntheticCheckpoint } from '../model-builder/synthetic-checkpoint';
import { SYNTHETIC_MODEL_TYPES, SYNTHETIC_SIZES, type SyntheticModelType, type SyntheticSize } from '../model-builder/synthetic-config';
import type { BuildDtype } from '../model-format/manifest';
import { createModelManager } from '../models/model-manager';
import { createProgressBarRenderer } from '../models/progress-bar';
import { formatBytes } from '../models/disk-space';
import { defaultUserDataDir } from '../platform/paths';
import { UsageError, parseIntFlag } from './cli-errors';
import { createBuildProgress } from './build-progress';

const SIZES = SYNTHETIC_SIZES;
type Size = SyntheticSize;

function parseDtype(value: string): BuildDtype {
  if (value !== 'fp16' && value !== 'fp32') throw new UsageError(`--dtype must be fp16 or fp32, got '${value}'`, 'fp16 for GPU providers, fp32 for CPU');
  return value;
}

async function withBuildProgress<T>(fn: (onProgress: (e: { phase: string; done: number; total: number }) => void) => Promise<T>): Promise<T> {
  const bar = createBuildProgress(process.stderr);
  try {
    return await fn(bar.onProgress);
  } finally {
    bar.dispose();
  }
}

export function registerModel(program: Command): void {
  const model = program.command('model').description('build, inspect, download and manage models');

  model
    .command('synth')
    .description('write a synthetic checkpoint in the official layout with seeded random weights (it produces noise, not speech)')
    .requiredOption('--out <dir>', 'output folder')
    .option('--size <size>', `one of ${SIZES.join(', ')}`, 'tiny')
    .option('--type <type>', `one of ${SYNTHETIC_MODEL_TYPES.join(', ')}`, 'custom_voice')
    .option('--seed <n>', 'weight seed', '1')
    .action(async (opts: { out: string; size: string; type: string; seed: string }) => {
      if (!SIZES.includes(opts.size as Size)) throw new UsageError(`--size must be one of ${SIZES.join(', ')}, got '${opts.size}'`, 'pass --size tiny for tests');
      const modelType = opts.type as SyntheticModelType;
      if (!SYNTHETIC_MODEL_TYPES.includes(modelType)) throw new UsageError(`--type must be one of ${SYNTHETIC_MODEL_TYPES.join(', ')}, got '${opts.type}'`, 'base clones voices (speaker encoder included); voice_design is 1.7B only in the official set');
      const seed = parseIntFlag('seed', opts.seed, 0, 2 ** 32 - 1);
      const { checkpointDir } = await withBuildProgress((onProgress) =>
        writeSyntheticCheckpoint({ size: opts.size as Size, modelType, seed, outDir: path.resolve(opts.out), onProgress }),
      );
      console.log(`wrote a synthetic ${opts.size} ${modelType} checkpoint (seed ${seed}) to ${checkpointDir}`);
    });

  model
    .command('build')
    .description('compile a checkpoint folder into ONNX graphs (cached by checkpoint hash, builder version and dtype)')
    .requiredOption('--checkpoint <dir>', 'the official checkpoint folder (config.json, model.safetensors, speech_tokenizer/ …)')
    .option('--out <dir>', 'cache folder for built models', path.join(defaultUserDataDir(), 'built'))
    .option('--dtype <dtype>', 'fp16 (GPU providers) or fp32 (CPU)', 'fp32')
    .option('--ops <ops>', `op set: ${GRAPH_OPS.join(' or ')} (plain ONNX ops, for comparison or a provider without fused kernels)`, DEFAULT_GRAPH_OPS)
    .action(async (opts: { checkpoint: string; out: string; dtype: string; ops: string }) => {
      const dtype = parseDtype(opts.dtype);
      if (!GRAPH_OPS.includes(opts.ops as GraphOps)) throw new UsageError(`--ops must be one of ${GRAPH_OPS.join(', ')}, got '${opts.ops}'`, `pass --ops ${DEFAULT_GRAPH_OPS}`);
      const startedMs = performance.now();
      const result = await withBuildProgress((onProgress) => buildModel({ checkpointDir: path.resolve(opts.checkpoint), outDir: path.resolve(opts.out), dtype, ops: opts.ops as GraphOps, onProgress }));
      const secs = ((performance.now() - startedMs) / 1000).toFixed(1);
      console.log(`${result.cacheHit ? 'up to date (cache hit)' : `built in ${secs} s`}: ${result.builtDir}`);
    });

  model
    .command('inspect <dir>')
    .description("print a built model's manifest: dims, ids, graphs and file sizes")
    .option('--json', 'print the whole manifest as JSON')
    .action((dir: string, opts: { json?: boolean }) => {
      const { manifest, files, totalBytes } = inspectModel(path.resolve(dir));
      if (opts.json) {
        console.log(JSON.stringify(manifest, null, 2));
        return;
      }
      const t = manifest.talker;
      console.log(`model      ${manifest.ttsModelType} ${manifest.ttsModelSize} (${manifest.dtype}, ${manifest.ops ?? 'portable'} ops), builder v${manifest.builderVersion}`);
      console.log(`checkpoint ${manifest.checkpointHash.slice(0, 16)}… at ${manifest.checkpointDir}`);
      console.log(`talker     ${t.numLayers} layers, hidden ${t.hiddenSize}, ${t.numHeads}/${t.numKvHeads} heads × ${t.headDim}, vocab ${t.vocabSize}`);
      console.log(`predictor  ${manifest.codePredictor.numLayers} layers, hidden ${manifest.codePredictor.hiddenSize}, default graph '${manifest.defaultCodePredictor}'`);
      console.log(`speakers   ${Object.keys(manifest.speakers).join(', ') || '(none)'}`);
      console.log(`languages  auto, ${Object.keys(manifest.languages).join(', ')}`);
      for (const f of files) console.log(`  ${f.file.padEnd(36)} ${formatBytes(f.numBytes)}`);
      console.log(`total      ${formatBytes(totalBytes)}`);
    });

  model
    .command('pull <repo-or-folder>')
    .description('download a checkpoint from the Hugging Face hub (resume, sha256 check) or register a local folder, then build it')
    .option('--revision <rev>', 'branch, tag or commit', 'main')
    .option('--dtype <dtype>', 'build dtype: fp16 or fp32', 'fp32')
    .option('--no-build', 'download only')
    .option('--offline', 'never touch the network (also STUDIO_OFFLINE=1 or HF_HUB_OFFLINE=1)')
    .action(async (target: string, opts: { revision: string; dtype: string; build: boolean; offline?: boolean }) => {
      // --offline forces offline mode; without it the environment decides (STUDIO_OFFLINE=1, HF_HUB_OFFLINE=1).
      const manager = createModelManager({ offline: opts.offline === true ? true : undefined });
      const bar = createProgressBarRenderer({ stream: process.stderr });
      try {
        const entry = await manager.pull(target, { revision: opts.revision, dtype: parseDtype(opts.dtype), skipBuild: !opts.build, onProgress: bar.onProgress });
        bar.dispose();
        console.log(`${entry.id}: ${entry.status} (${formatBytes(entry.diskSizeBytes)}) at ${entry.dir}`);
      } finally {
        bar.dispose();
      }
    });

  model
    .command('list')
    .description('installed models with their sizes and status')
    .action(async () => {
      const entries = await createModelManager().list();
      if (entries.length === 0) console.log('no models installed; try: studio model pull Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice');
      for (const e of entries) console.log(`${e.id.padEnd(48)} ${e.status.padEnd(10)} ${formatBytes(e.diskSizeBytes).padStart(10)}  ${e.dir}`);
    });

  model
    .command('remove <id>')
    .description('delete an installed model and its built graphs')
    .action(async (id: string) => {
      await createModelManager().remove(id);
      console.log(`removed ${id}`);
    });

  model
    .command('verify <id>')
    .description('re-hash every file of an installed model against its recorded sha256')
    .action(async (id: string) => {
      const report = await createModelManager().verify(id, (file) => process.stderr.write(`checking ${file}\n`));
      console.log(JSON.stringify(report, null, 2));
    });
}
