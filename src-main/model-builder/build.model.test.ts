// Model tier: buildModel caching (hit, half-built rebuild, two builds racing), inspectModel, manifest contents, the fp16
// build loading and running on CPU close to fp32, and the checkpoint reader's errors on damaged folders.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import { createSession, disposeSession, runSession, tensor, type OrtTensor } from '../engine/runtime/ort';
import { buildModel, inspectModel } from './build';
import { bundledTokenizerDir, loadTextTokenizer } from '../engine/tokenizer';
import { checkpointFingerprint, openCheckpoint } from './checkpoint';
import { defaultGenerationDefaults } from './checkpoint-config';
import { float32ToFloat16Bits } from '../model-format/float-bits';
import { MODEL_MANIFEST_FILE, type ModelManifest } from '../model-format/manifest';
import { ModelProtoType } from '../model-format/onnx/onnx-schema';
import { emptyPast, maxAbsDiff } from './reference/compare';
import { ensureTinyModel } from './tiny-model';

let checkpointDir: string;
let builtDir: string;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'build-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

beforeAll(async () => {
  ({ checkpointDir, builtDir } = await ensureTinyModel());
});

/** A copy of the tiny checkpoint (hard links where possible) that a test may damage. */
function copyCheckpoint(name: string): string {
  const dir = path.join(tmp, name);
  fs.cpSync(checkpointDir, dir, { recursive: true });
  return dir;
}

/** Talker feeds for a 3-token prompt read from the fp32 build's projected text table, as fp32 or fp16. */
function talkerPromptFeeds(manifest: ModelManifest, half: boolean): Record<string, OrtTensor> {
  const t = manifest.talker;
  const ids = [151644, 77091, 198];
  const table = fs.readFileSync(path.join(builtDir, manifest.embeddings.textProjected.file));
  const rows32 = new Float32Array(ids.length * t.hiddenSize);
  ids.forEach((id, i) => rows32.set(new Float32Array(table.buffer, table.byteOffset + id * t.hiddenSize * 4, t.hiddenSize), i * t.hiddenSize));
  const past = emptyPast(t.numLayers, 1, t.numKvHeads, t.headDim, ids.length);
  const embeds = half ? tensor('float16', float32ToFloat16Bits(rows32), [1, ids.length, t.hiddenSize]) : tensor('float32', rows32, [1, ids.length, t.hiddenSize]);
  if (half) for (const k of Object.keys(past)) past[k] = tensor('float16', new Uint16Array(past[k].size), past[k].dims);
  return { inputs_embeds: embeds, attention_mask: tensor('int64', BigInt64Array.of(1n, 1n, 1n), [1, 3]), position_ids: tensor('int64', BigInt64Array.of(0n, 1n, 2n), [1, 3]), ...past };
}

/** How many nodes of each op type a built graph file holds (its weights are external, so the file is small). */
function opCounts(file: string): Map<string, number> {
  const model = ModelProtoType.decode(fs.readFileSync(file)) as unknown as { graph: { node: { opType: string }[] } };
  const counts = new Map<string, number>();
  for (const n of model.graph.node) counts.set(n.opType, (counts.get(n.opType) ?? 0) + 1);
  return counts;
}

async function talkerLogits(dir: string, feeds: Record<string, OrtTensor>): Promise<Float32Array> {
  const s = await createSession(path.join(dir, 'talker.onnx'), { provider: 'cpu', intraOpNumThreads: 1 });
  try {
    return (await runSession(s, feeds)).logits.data as Float32Array;
  } finally {
    await disposeSession(s);
  }
}

function catchStudioError(fn: () => unknown): StudioError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StudioError) return err;
    throw err;
  }
  throw new Error('expected a StudioError');
}

describe('buildModel', () => {
  it('is a cache hit the second time for the same checkpoint, builder version and dtype', async () => {
    const cacheRoot = path.dirname(builtDir);
    const again = await buildModel({ checkpointDir, outDir: cacheRoot, dtype: 'fp32' });
    expect(again.cacheHit).toBe(true);
    expect(again.builtDir).toBe(builtDir);
  });

  it('rebuilds a half-built output that has no manifest', async () => {
    const outDir = path.join(tmp, 'cache');
    const first = await buildModel({ checkpointDir, outDir, dtype: 'fp32' });
    expect(first.cacheHit).toBe(false);
    fs.rmSync(path.join(first.builtDir, MODEL_MANIFEST_FILE));
    fs.writeFileSync(path.join(first.builtDir, 'talker.onnx'), 'half written');
    const phases: string[] = [];
    const second = await buildModel({ checkpointDir, outDir, dtype: 'fp32', onProgress: (e) => phases.push(e.phase) });
    expect(second.cacheHit).toBe(false);
    expect(phases).toContain('graphs');
    expect(fs.statSync(path.join(second.builtDir, 'talker.onnx')).size).toBeGreaterThan(1000);
  });

  it('lets two builds of one model race: one publishes, the other keeps its complete copy, no temp folder is left', async () => {
    const outDir = path.join(tmp, 'race');
    const [a, b] = await Promise.all([buildModel({ checkpointDir, outDir, dtype: 'fp32' }), buildModel({ checkpointDir, outDir, dtype: 'fp32' })]);
    expect(a.builtDir).toBe(b.builtDir);
    expect([a.cacheHit, b.cacheHit].sort()).toEqual([false, true]);
    expect(fs.readdirSync(outDir)).toEqual([path.basename(a.builtDir)]);
    expect(inspectModel(a.builtDir).files.every((f) => f.numBytes > 0)).toBe(true);
  });

  it('records real ids, dims, generation defaults and every file in the manifest', () => {
    const { manifest, files } = inspectModel(builtDir);
    expect(manifest.talker).toMatchObject({ hiddenSize: 64, numLayers: 2, vocabSize: 3072, textVocabSize: 151936 });
    expect(manifest.speakers.vivian.codecId).toBe(3065);
    expect(manifest.languages.english).toBe(2050);
    expect(manifest.codecTokens.eos).toBe(2150);
    expect(manifest.generation).toMatchObject({ temperature: 0.9, topK: 50, maxNewTokens: 8192 });
    expect(manifest.embeddings.textProjected.shape).toEqual([151936, 64]);
    // 151,936 rows × 64 values × 4 bytes
    expect(manifest.embeddings.textProjected.byteLength).toBe(151936 * 64 * 4);
    expect(manifest.graphs.talker.inputs.map((i) => i.name).slice(0, 3)).toEqual(['inputs_embeds', 'attention_mask', 'position_ids']);
    expect(files.every((f) => f.numBytes > 0)).toBe(true);
  });

  it('writes the codec decoder graph next to the talker graphs and records its facts', async () => {
    const { manifest, files } = inspectModel(builtDir);
    expect(manifest.graphs.codec).toMatchObject({ file: 'codec_decoder.onnx', externalDataFile: 'codec_decoder.onnx.data' });
    expect(files.map((f) => f.file)).toContain('codec_decoder.onnx.data');
    // 24 kHz at 12.5 frames per second = 1,920 samples per frame
    expect(manifest.codec).toEqual({ sampleRateHz: 24000, samplesPerFrame: 1920, numQuantizers: manifest.numCodeGroups });
    const s = await createSession(path.join(builtDir, manifest.graphs.codec.file), { provider: 'cpu', intraOpNumThreads: 1 });
    const numFrames = 3;
    const codes = tensor('int64', new BigInt64Array(manifest.codec.numQuantizers * numFrames).fill(5n), [1, manifest.codec.numQuantizers, numFrames]);
    const pcm = (await runSession(s, { codes })).pcm;
    await disposeSession(s);
    expect(pcm.dims).toEqual([1, numFrames * 1920]);
    // the streaming graph beside it: codes and num_cached, then one state input per output after pcm
    const stream = manifest.graphs.codecStream;
    expect(stream).toMatchObject({ file: 'codec_decoder_stream.onnx', externalDataFile: 'codec_decoder_stream.onnx.data' });
    expect(stream.inputs.slice(0, 2).map((i) => i.name)).toEqual(['codes', 'num_cached']);
    expect(stream.inputs.length - 2).toBe(stream.outputs.length - 1);
    expect(stream.inputs.length - 2).toBeGreaterThan(10);
    stream.inputs.slice(2).forEach((input, i) => expect(stream.outputs[i + 1].dims).toEqual(input.dims));
  });

  it('stores the text table pre-projected: row 151671 equals text_projection(text_embedding(151671))', async () => {
    const { manifest } = inspectModel(builtDir);
    const { ReferenceTalker } = await import('./reference/reference-models');
    const checkpoint = openCheckpoint(checkpointDir);
    const want = new ReferenceTalker(checkpoint.weights, checkpoint.config).textRow(151671);
    checkpoint.close();
    const h = manifest.talker.hiddenSize;
    const buffer = Buffer.alloc(h * 4);
    const fd = fs.openSync(path.join(builtDir, manifest.embeddings.textProjected.file), 'r');
    fs.readSync(fd, buffer, 0, h * 4, 151671 * h * 4);
    fs.closeSync(fd);
    const got = new Float32Array(buffer.buffer, buffer.byteOffset, h);
    expect(maxAbsDiff(got, want, 1e-5).maxDiff).toBeLessThanOrEqual(1e-5);
  });

  it('builds an fp16 variant whose talker loads, runs on CPU and stays close to fp32', async () => {
    const fp16 = await ensureTinyModel('fp16');
    const { manifest } = inspectModel(fp16.builtDir);
    expect(manifest.dtype).toBe('fp16');
    expect(manifest.graphs.talker.inputs[0].dtype).toBe('float16');
    const feedsFor = (half: boolean) => talkerPromptFeeds(manifest, half);
    const s16 = await createSession(path.join(fp16.builtDir, 'talker.onnx'), { provider: 'cpu', intraOpNumThreads: 1 });
    const s32 = await createSession(path.join(builtDir, 'talker.onnx'), { provider: 'cpu', intraOpNumThreads: 1 });
    const l16 = (await runSession(s16, feedsFor(true))).logits.data as Float32Array;
    const l32 = (await runSession(s32, feedsFor(false))).logits.data as Float32Array;
    await disposeSession(s16);
    await disposeSession(s32);
    expect(l16.every(Number.isFinite)).toBe(true);
    expect(maxAbsDiff(l16, l32, 0.05).maxDiff).toBeLessThan(0.05);
    for (const file of ['code_predictor_step.onnx', 'code_predictor_loop.onnx']) {
      const s = await createSession(path.join(fp16.builtDir, file), { provider: 'cpu', intraOpNumThreads: 1 });
      expect(s.inputNames.length).toBeGreaterThan(0);
      await disposeSession(s);
    }
  });
  it("uses fused RMSNorm and RoPE nodes by default, and plain ops in a 'portable' build with the same logits", async () => {
    const outDir = path.join(tmp, 'ops');
    const portable = await buildModel({ checkpointDir, outDir, dtype: 'fp32', ops: 'portable' });
    expect(path.basename(portable.builtDir)).toMatch(/-fp32-portable$/);
    expect(portable.manifest.ops).toBe('portable');
    const { manifest } = inspectModel(builtDir);
    expect(manifest.ops).toBe('fused');
    // 2 layers × (input, q, k, post-attention norm) + the final norm
    const numNorms = manifest.talker.numLayers * 4 + 1;
    const fused = opCounts(path.join(builtDir, 'talker.onnx'));
    const plain = opCounts(path.join(portable.builtDir, 'talker.onnx'));
    expect(fused.get('SimplifiedLayerNormalization')).toBe(numNorms);
    expect(fused.get('ReduceMean')).toBeUndefined();
    expect(plain.get('SimplifiedLayerNormalization')).toBeUndefined();
    expect(plain.get('ReduceMean')).toBe(numNorms);
    expect(fused.get('RotaryEmbedding')).toBe(manifest.talker.numLayers * 2); // q and k of every layer
    expect(fused.get('Neg')).toBeUndefined();
    expect(plain.get('Neg')).toBe(manifest.talker.numLayers * 2);
    const numNodes = (c: Map<string, number>) => [...c.values()].reduce((a, b) => a + b, 0);
    // per norm 6 plain ops → 1; per q/k rope 8 (Transpose, 2 Slice, Neg, Concat, 2 Mul, Add) → 4 (2 Reshape, RotaryEmbedding,
    // Transpose); once per graph the cos/sin computation (2 Unsqueeze, Mul, Cos, Sin; its Cast of the ids is the one the
    // mask and KV write share, builder v16) → one Max clamp of the ids
    expect(numNodes(plain) - numNodes(fused)).toBe(numNorms * 5 + manifest.talker.numLayers * 2 * 4 + 4);
    const feeds = talkerPromptFeeds(manifest, false);
    expect(maxAbsDiff(await talkerLogits(builtDir, feeds), await talkerLogits(portable.builtDir, feeds), 1e-4).maxDiff).toBeLessThan(1e-4);
  });

  it('keeps int64 math out of the loop graph\'s sub-steps: positions and masks are constants, codes int32 (WebGPU runs int64 ops on the CPU)', async () => {
    const { manifest } = inspectModel(builtDir);
    const numSteps = manifest.numCodeGroups - 1;
    const loop = opCounts(path.join(builtDir, 'code_predictor_loop.onnx'));
    // no shape math at run time: one Shape (the batch size), no position Range per sub-step, no int64 GatherElements
    expect(loop.get('Shape')).toBe(1);
    expect(loop.get('GatherElements')).toBeUndefined();
    // once per call: top-k ranks (ReduceMax, Range, Less on the host-fed top_k)
    expect(loop.get('Range')).toBe(1);
    expect(loop.get('ReduceMax')).toBe(1);
    // per sub-step: one TopK and one int32 code
    expect(loop.get('TopK')).toBe(numSteps);
    expect(manifest.graphs.codePredictorLoop.outputs.find((o) => o.name === 'codes')?.dtype).toBe('int32');
    // fused build: RoPE, KV append and attention of every layer and sub-step are one GroupQueryAttention node
    expect(loop.get('GroupQueryAttention')).toBe(manifest.codePredictor.numLayers * numSteps);
    expect(loop.get('RotaryEmbedding')).toBeUndefined();
    expect(loop.get('Softmax')).toBe(2 * numSteps); // the sampler's two; none left in attention
  });

  it('computes q/k/v and gate/up of every layer with one MatMul each, split after (fewer, larger dispatches)', async () => {
    const { manifest } = inspectModel(builtDir);
    const talker = opCounts(path.join(builtDir, 'talker.onnx'));
    const numTalkerLayers = manifest.talker.numLayers;
    // per layer: q | k+v, then k | v (equal-width Splits a CUDA graph replays safely: replay-safe-split.ts), and gate | up
    expect(talker.get('Split')).toBe(3 * numTalkerLayers);
    // per layer: qkv, o, gate/up and down; scores and context; the KV write's one-hot MatMuls (keys, values); plus the head
    expect(talker.get('MatMul')).toBe(numTalkerLayers * (4 + 2 + 2) + 1);
    const loop = opCounts(path.join(builtDir, 'code_predictor_loop.onnx'));
    // plus one Split of the uniforms, once per call (builder v16: no Slice per sub-step)
    expect(loop.get('Split')).toBe(3 * manifest.codePredictor.numLayers * (manifest.numCodeGroups - 1) + 1);
  });

  it('rejects an unknown op set, naming the valid ones', async () => {
    await expect(buildModel({ checkpointDir, outDir: path.join(tmp, 'bad-ops'), dtype: 'fp32', ops: 'turbo' as never })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: expect.stringContaining('fused, portable'),
    });
  });
});

describe('checkpoint reader errors', () => {
  it('names a missing file and the fix', () => {
    const dir = copyCheckpoint('missing');
    fs.rmSync(path.join(dir, 'merges.txt'));
    const err = catchStudioError(() => openCheckpoint(dir));
    expect(err.code).toBe('model-missing');
    expect(err.message).toMatch(/has no merges\.txt/);
  });

  it('says a tokenizer.json would do when vocab.json + merges.txt are missing', () => {
    const dir = copyCheckpoint('no-tokenizer');
    fs.rmSync(path.join(dir, 'vocab.json'));
    fs.rmSync(path.join(dir, 'merges.txt'));
    const err = catchStudioError(() => openCheckpoint(dir));
    expect(err.code).toBe('model-missing');
    expect(err.message).toMatch(/has no vocab\.json, merges\.txt \(vocab\.json \+ merges\.txt, or a tokenizer\.json\)/);
  });

  it('names a folder that does not exist', () => {
    const err = catchStudioError(() => openCheckpoint(path.join(tmp, 'nowhere')));
    expect(err.code).toBe('model-missing');
    expect(err.message).toMatch(/does not exist/);
  });

  it('builds a folder without the optional tokenizer_config.json and generation_config.json, as the runtime reads it', async () => {
    const dir = copyCheckpoint('optional-files');
    fs.rmSync(path.join(dir, 'tokenizer_config.json'));
    fs.rmSync(path.join(dir, 'generation_config.json'));
    expect(checkpointFingerprint(dir)).not.toBe(checkpointFingerprint(checkpointDir));
    const { builtDir: lean, manifest } = await buildModel({ checkpointDir: dir, outDir: path.join(tmp, 'optional-built'), dtype: 'fp32' });
    expect(manifest.files).toEqual({ vocab: 'vocab.json', merges: 'merges.txt' });
    expect(fs.existsSync(path.join(lean, 'tokenizer_config.json'))).toBe(false);
    // the official wrapper's hard defaults stand in for generation_config.json (max_new_tokens 2048, not the file's 8192)
    expect(manifest.generation).toEqual(defaultGenerationDefaults());
    const text = 'Hello world, this is the studio.';
    expect(loadTextTokenizer(lean).encode(text)).toEqual(loadTextTokenizer(builtDir).encode(text));
  });

  it('takes a tokenizer.json in place of vocab.json + merges.txt and copies it into the build', () => {
    const dir = copyCheckpoint('tokenizer-json');
    fs.rmSync(path.join(dir, 'vocab.json'));
    fs.rmSync(path.join(dir, 'merges.txt'));
    fs.copyFileSync(path.join(bundledTokenizerDir(), 'tokenizer.json'), path.join(dir, 'tokenizer.json'));
    const checkpoint = openCheckpoint(dir);
    try {
      expect(checkpoint.tokenizerFiles).toEqual(['tokenizer.json', 'tokenizer_config.json']);
      expect(checkpoint.present.vocab).toBe(false);
    } finally {
      checkpoint.close();
    }
  });

  it('reports a truncated model.safetensors', () => {
    const dir = copyCheckpoint('truncated');
    const file = path.join(dir, 'model.safetensors');
    fs.truncateSync(file, fs.statSync(file).size - 1000);
    const err = catchStudioError(() => openCheckpoint(dir));
    expect(err.code).toBe('model-invalid');
    expect(err.message).toMatch(/truncated: tensor '.+' ends at byte/);
  });

  it('names tensor, expected and actual shape when config.json disagrees with the weights', () => {
    const dir = copyCheckpoint('mismatch');
    const configPath = path.join(dir, 'config.json');
    const config = JSON.parse(fs.readFileSync(configPath, 'utf8'));
    config.talker_config.intermediate_size = 96;
    fs.writeFileSync(configPath, JSON.stringify(config));
    const err = catchStudioError(() => openCheckpoint(dir));
    expect(err.code).toBe('model-invalid');
    expect(err.message).toContain("tensor 'talker.model.layers.0.mlp.gate_proj.weight' has shape [128, 64] but config.json implies [96, 64]");
  });

  it('rejects an unknown dtype in model.safetensors', () => {
    const dir = copyCheckpoint('dtype');
    const file = path.join(dir, 'model.safetensors');
    const bytes = fs.readFileSync(file);
    const headerLength = Number(bytes.readBigUInt64LE(0));
    const header = bytes.subarray(8, 8 + headerLength).toString('utf8').replace('"dtype":"BF16"', '"dtype":"Q4"') + '  ';
    const fixed = Buffer.alloc(8);
    fixed.writeBigUInt64LE(BigInt(headerLength));
    fs.writeFileSync(file, Buffer.concat([fixed, Buffer.from(header.slice(0, headerLength)), bytes.subarray(8 + headerLength)]));
    const err = catchStudioError(() => openCheckpoint(dir));
    expect(err.message).toMatch(/unknown dtype 'Q4'/);
  });
});
