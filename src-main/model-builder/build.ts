/**
 * buildModel: compiles a checkpoint folder into the studio's graphs, embedding tables and manifest.json,
 * in a cache dir keyed by (checkpoint fingerprint, builder version, dtype, op set). A dir with a valid manifest
 * is a cache hit; a build is written to a private sibling and renamed into place (publish-dir.ts).
 * inspectModel reads a built dir back and checks that every file it names is there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { BUILDER_VERSION, builtDirName, DEFAULT_GRAPH_OPS, manifestFiles } from '../model-format/built-model';
import { checkpointFingerprint, openCheckpoint, TOKENIZER_FILE_KEYS } from './checkpoint';
import { expectedCheckpointTensors } from './checkpoint-tensors';
import { buildCodePredictorLoopGraph, buildCodePredictorLoopPlainGraph, buildCodePredictorLoopStaticGraph } from './code-predictor-loop-graph';
import { buildCodePredictorStepGraph } from './code-predictor-graph';
import { buildCodecGraph } from './codec-graph-build';
import { writeEmbeddingTables } from './embeddings';
import { MODEL_MANIFEST_FILE, MODEL_MANIFEST_VERSION, type BuildDtype, type ModelManifest } from '../model-format/manifest';
import type { OnProgress } from './progress';
import { GRAPH_OPS, type GraphOps } from '../model-format/onnx/graph-builder';
import { publishDir, tempSiblingOf } from './publish-dir';
import { SafetensorsFile } from './safetensors';
import { buildTalkerDecodeGraph } from './talker-decode-graph';
import { buildTalkerGraph } from './talker-graph';
import { expectedSpeakerEncoderTensors } from './speaker-encoder/speaker-encoder-config';
import { buildSpeakerEncoderGraph, SPEAKER_ENCODER_FILE } from './speaker-encoder/speaker-encoder-graph';
import { usedSpeechEncoderTensors } from './speech-encoder/speech-encoder-config';
import { buildSpeechEncoderGraph, SPEECH_ENCODER_FILE } from './speech-encoder/speech-encoder-graph';

/** Measured on CPU (docs/benchmarks.md): the unrolled loop graph beats 15 step calls per frame. */
export const DEFAULT_CODE_PREDICTOR: ModelManifest['defaultCodePredictor'] = 'loop';

export interface BuildModelOptions {
  checkpointDir: string;
  /** Cache root; the model goes to <outDir>/<fingerprint16>-v<builder>-<dtype>[-portable]/. */
  outDir: string;
  dtype: BuildDtype;
  /** Op set of the talker and code-predictor graphs; default DEFAULT_GRAPH_OPS. */
  ops?: GraphOps;
  onProgress?: OnProgress;
}

export interface BuildModelResult {
  builtDir: string;
  manifest: ModelManifest;
  cacheHit: boolean;
}

export async function buildModel(options: BuildModelOptions): Promise<BuildModelResult> {
  const report = options.onProgress ?? (() => {});
  const ops = options.ops ?? DEFAULT_GRAPH_OPS;
  if (!GRAPH_OPS.includes(ops)) {
    throw new StudioError('invalid-argument', `build ops must be one of ${GRAPH_OPS.join(', ')} but is '${String(ops)}'`, { ops: String(ops) });
  }
  report({ phase: 'hash', done: 0, total: 1 });
  const checkpoint = openCheckpoint(options.checkpointDir);
  try {
    const checkpointHash = checkpointFingerprint(checkpoint.dir);
    report({ phase: 'hash', done: 1, total: 1 });
    const builtDir = path.resolve(options.outDir, builtDirName(checkpointHash, options.dtype, ops));
    const existing = readManifestIfValid(builtDir);
    if (existing) return { builtDir, manifest: existing, cacheHit: true };

    // written to a private sibling and renamed into place last: readers never see a half-built model
    const workDir = tempSiblingOf(builtDir);
    fs.mkdirSync(workDir, { recursive: true });
    try {
      const manifest = await writeBuild(checkpoint, checkpointHash, workDir, options.dtype, ops, report);
      if (!publishDir(workDir, builtDir, (dir) => readManifestIfValid(dir) !== null)) {
        return { builtDir, manifest: readManifestIfValid(builtDir) as ModelManifest, cacheHit: true };
      }
      report({ phase: 'done', done: 1, total: 1 });
      return { builtDir, manifest, cacheHit: false };
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  } finally {
    checkpoint.close();
  }
}

async function writeBuild(
  checkpoint: ReturnType<typeof openCheckpoint>,
  checkpointHash: string,
  builtDir: string,
  dtype: BuildDtype,
  ops: GraphOps,
  report: OnProgress,
): Promise<ModelManifest> {
  const { config } = checkpoint;
  // the two codec graphs (window and streaming) each hold the decoder weights: at most that file's fp32 size
  const numCodecBytes = 2 * fs.statSync(checkpoint.paths.speechTokenizerWeights).size * (dtype === 'fp16' ? 0.5 : 1);
  checkDiskSpace(builtDir, estimateBuiltBytes(checkpoint.config, dtype) + numCodecBytes);
  const act = dtype === 'fp16' ? 'float16' : 'float32';
  const args = { config, weights: checkpoint.weights, dtype: act, outDir: builtDir, builderVersion: BUILDER_VERSION, ops } as const;
  const numGraphs = 6;
  report({ phase: 'graphs', done: 0, total: numGraphs });
  const talker = buildTalkerGraph(args);
  report({ phase: 'graphs', done: 1, total: numGraphs });
  const talkerDecode = buildTalkerDecodeGraph(args);
  report({ phase: 'graphs', done: 2, total: numGraphs });
  const codePredictorStep = buildCodePredictorStepGraph(args);
  report({ phase: 'graphs', done: 3, total: numGraphs });
  const codePredictorLoop = buildCodePredictorLoopGraph(args);
  report({ phase: 'graphs', done: 4, total: numGraphs });
  const codePredictorLoopStatic = buildCodePredictorLoopStaticGraph(args);
  const codePredictorLoopPlain = buildCodePredictorLoopPlainGraph(args);
  report({ phase: 'graphs', done: 5, total: numGraphs });
  const codec = buildCodecGraph(checkpoint.dir, builtDir, dtype, ops);
  report({ phase: 'graphs', done: 6, total: numGraphs });
  const embeddings = await writeEmbeddingTables(checkpoint.weights, config, builtDir, act, report);
  const speakerEncoder = writeSpeakerEncoder(checkpoint, builtDir);
  const speechEncoder = writeSpeechEncoder(checkpoint, builtDir);
  for (const name of checkpoint.tokenizerFiles) fs.copyFileSync(path.join(checkpoint.dir, name), path.join(builtDir, name));

  const manifest: ModelManifest = {
    manifestVersion: MODEL_MANIFEST_VERSION,
    builderVersion: BUILDER_VERSION,
    checkpointHash,
    dtype,
    ops,
    createdAt: new Date().toISOString(),
    ttsModelType: config.ttsModelType,
    ttsModelSize: config.ttsModelSize,
    numCodeGroups: config.numCodeGroups,
    talker: config.talker,
    codePredictor: config.codePredictor,
    textTokens: config.textTokens,
    codecTokens: config.codecTokens,
    speakers: config.speakers,
    languages: config.languages,
    generation: config.generation,
    graphs: {
      talker, talkerDecode, codePredictorStep, codePredictorLoop, codePredictorLoopStatic, codePredictorLoopPlain, codec: codec.graph, codecStream: codec.streamGraph, codecStreamStatic: codec.streamStaticGraph,
      codecStreamMatMul: codec.streamMatMulGraph, codecStreamStaticMatMul: codec.streamStaticMatMulGraph,
    },
    codec: codec.facts,
    defaultCodePredictor: DEFAULT_CODE_PREDICTOR,
    embeddings,
    files: Object.fromEntries(checkpoint.tokenizerFiles.map((name) => [TOKENIZER_FILE_KEYS[name], name])) as ModelManifest['files'],
    checkpointDir: checkpoint.dir,
    ...(speakerEncoder ? { speakerEncoder } : {}),
    ...(speechEncoder ? { speechEncoder } : {}),
  };
  fs.writeFileSync(path.join(builtDir, MODEL_MANIFEST_FILE), JSON.stringify(manifest, null, 2));
  return manifest;
}

/** Base checkpoints: compiles the speaker encoder into the build (fp32 whatever the build dtype; ~48 MB at full size). */
function writeSpeakerEncoder(checkpoint: ReturnType<typeof openCheckpoint>, builtDir: string): ModelManifest['speakerEncoder'] | null {
  const config = checkpoint.speakerEncoder;
  if (!config) return null;
  const weights = new Map(expectedSpeakerEncoderTensors(config).map((t) => [t.name, { shape: t.shape, data: checkpoint.weights.readFloat32(t.name) }]));
  fs.writeFileSync(path.join(builtDir, SPEAKER_ENCODER_FILE), buildSpeakerEncoderGraph(config, weights));
  return { file: SPEAKER_ENCODER_FILE, melDim: config.melDim, encDim: config.encDim, sampleRateHz: config.sampleRateHz };
}

/** Base checkpoints: compiles the speech tokenizer's encoder (fp32; ~190 MB at full size, the 16 used codebooks only) for in-context cloning. */
function writeSpeechEncoder(checkpoint: ReturnType<typeof openCheckpoint>, builtDir: string): ModelManifest['speechEncoder'] | null {
  const config = checkpoint.speechEncoder;
  if (!config) return null;
  const file = SafetensorsFile.open(checkpoint.paths.speechTokenizerWeights);
  let weights: Map<string, { shape: number[]; data: Float32Array }>;
  try {
    weights = new Map(usedSpeechEncoderTensors(config).map((t) => [t.name, { shape: t.shape, data: file.readFloat32(t.name) }]));
  } finally {
    file.close();
  }
  fs.writeFileSync(path.join(builtDir, SPEECH_ENCODER_FILE), buildSpeechEncoderGraph(config, weights));
  return { file: SPEECH_ENCODER_FILE, sampleRateHz: config.sampleRateHz, samplesPerFrame: config.samplesPerFrame, numQuantizers: config.numValidQuantizers };
}

function readManifestIfValid(builtDir: string): ModelManifest | null {
  const file = path.join(builtDir, MODEL_MANIFEST_FILE);
  if (!fs.existsSync(file)) return null;
  try {
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as ModelManifest;
    if (manifest.manifestVersion !== MODEL_MANIFEST_VERSION || manifest.builderVersion !== BUILDER_VERSION) return null;
    return missingFiles(builtDir, manifest).length === 0 ? manifest : null;
  } catch {
    return null;
  }
}

function missingFiles(builtDir: string, manifest: ModelManifest): string[] {
  return manifestFiles(manifest).filter((f) => !fs.existsSync(path.join(builtDir, f)));
}

/** Bytes the build writes: talker + code predictor twice (step and loop) + tables, at the build dtype. */
export function estimateBuiltBytes(config: Parameters<typeof expectedCheckpointTensors>[0], dtype: BuildDtype): number {
  const bytesPerValue = dtype === 'fp16' ? 2 : 4;
  let numValues = 0;
  for (const t of expectedCheckpointTensors(config)) {
    const n = t.shape.reduce((a, b) => a * b, 1);
    if (t.name.startsWith('talker.code_predictor.')) numValues += 2 * n;
    else if (!t.name.includes('text_embedding') && !t.name.includes('text_projection')) numValues += n;
  }
  numValues += config.talker.textVocabSize * config.talker.hiddenSize;
  return numValues * bytesPerValue;
}

function checkDiskSpace(dir: string, numNeededBytes: number): void {
  const stats = fs.statfsSync(dir);
  const numFreeBytes = stats.bavail * stats.bsize;
  const margin = 64 * 1024 * 1024;
  if (numFreeBytes < numNeededBytes + margin) {
    throw new StudioError('disk-full', `building needs about ${(numNeededBytes / 1e9).toFixed(2)} GB in ${dir} but ${(numFreeBytes / 1e9).toFixed(2)} GB are free; free some space or pick another cache dir`, {
      dir,
      numNeededBytes,
      numFreeBytes,
    });
  }
}

export interface InspectResult {
  manifest: ModelManifest;
  files: { file: string; numBytes: number }[];
  totalBytes: number;
}

/** Reads a built dir's manifest and sizes its files; throws model-missing / model-invalid naming what is wrong. */
export function inspectModel(builtDir: string): InspectResult {
  const file = path.join(builtDir, MODEL_MANIFEST_FILE);
  if (!fs.existsSync(file)) {
    throw new StudioError('model-missing', `${builtDir} has no ${MODEL_MANIFEST_FILE}; it is not a built model or its build did not finish, run 'studio model build'`, { dir: builtDir });
  }
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as ModelManifest;
  if (manifest.manifestVersion !== MODEL_MANIFEST_VERSION) {
    throw new StudioError('model-invalid', `${file} has manifest version ${manifest.manifestVersion} but this build reads ${MODEL_MANIFEST_VERSION}; rebuild the model`, { dir: builtDir });
  }
  const missing = missingFiles(builtDir, manifest);
  if (missing.length > 0) {
    throw new StudioError('model-invalid', `${builtDir} lacks ${missing.join(', ')}; rebuild the model`, { dir: builtDir, missing });
  }
  const files = manifestFiles(manifest).map((f) => ({ file: f, numBytes: fs.statSync(path.join(builtDir, f)).size }));
  return { manifest, files, totalBytes: files.reduce((a, f) => a + f.numBytes, 0) };
}
