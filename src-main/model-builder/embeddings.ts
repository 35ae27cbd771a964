/**
 * Writes the raw embedding tables the engine gathers rows from: the text table pre-projected through
 * text_projection (exact: the projection is per token, spec §1.3), the talker codec table and the
 * stacked code-predictor tables, as row-major .bin files in the build dtype. The projection runs in
 * onnxruntime (CPU) over chunks of rows, so the 151,936-row table never sits in memory at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createSession, disposeSession, runSession, tensor } from '../engine/runtime/ort';
import type { CheckpointConfig } from './checkpoint-config';
import type { TableSpec } from '../model-format/manifest';
import { linear, silu } from '../model-format/onnx/composite-ops';
import { GraphBuilder } from '../model-format/onnx/graph-builder';
import { encodeFloats, type SafetensorsFile } from './safetensors';
import type { OnProgress } from './progress';
import { transpose2d } from './weight-loader';

export const EMBEDDING_FILES = { textProjected: 'text_projected.bin', codec: 'codec_embedding.bin', codePredictorCodec: 'code_predictor_embedding.bin' } as const;

const PROJECTION_CHUNK_ROWS = 4096;

type TableDtype = 'float32' | 'float16';

class TableFile {
  private readonly fd: number;
  private numBytes = 0;
  constructor(readonly filePath: string, private readonly dtype: TableDtype) {
    this.fd = fs.openSync(filePath, 'w');
  }
  append(values: Float32Array): void {
    const bytes = encodeFloats(values, this.dtype === 'float16' ? 'F16' : 'F32');
    let done = 0;
    while (done < bytes.byteLength) done += fs.writeSync(this.fd, bytes, done, bytes.byteLength - done, this.numBytes + done);
    this.numBytes += bytes.byteLength;
  }
  finish(shape: number[], doc: string): TableSpec {
    fs.fsyncSync(this.fd);
    fs.closeSync(this.fd);
    return { file: path.basename(this.filePath), dtype: this.dtype, shape, byteOffset: 0, byteLength: this.numBytes, doc };
  }
}

/** An in-memory graph [N, textHidden] → fc2(silu(fc1(x))) [N, hidden], fp32. */
function projectionGraph(weights: SafetensorsFile, config: CheckpointConfig): Uint8Array {
  const t = config.talker;
  const g = new GraphBuilder({ name: 'text_projection' });
  g.input('rows', 'float32', ['n', t.textHiddenSize]);
  const w1 = g.initializer('fc1T', transpose2d(weights.readFloat32('talker.text_projection.linear_fc1.weight'), t.textHiddenSize, t.textHiddenSize), [t.textHiddenSize, t.textHiddenSize]);
  const b1 = g.initializer('fc1b', weights.readFloat32('talker.text_projection.linear_fc1.bias'), [t.textHiddenSize]);
  const w2 = g.initializer('fc2T', transpose2d(weights.readFloat32('talker.text_projection.linear_fc2.weight'), t.hiddenSize, t.textHiddenSize), [t.textHiddenSize, t.hiddenSize]);
  const b2 = g.initializer('fc2b', weights.readFloat32('talker.text_projection.linear_fc2.bias'), [t.hiddenSize]);
  g.output(linear(g, silu(g, linear(g, 'rows', w1, b1)), w2, b2), 'float32', ['n', t.hiddenSize], 'projected');
  return g.toBytes();
}

export async function writeEmbeddingTables(weights: SafetensorsFile, config: CheckpointConfig, outDir: string, dtype: TableDtype, onProgress: OnProgress = () => {}): Promise<Record<keyof typeof EMBEDDING_FILES, TableSpec>> {
  const t = config.talker;
  const session = await createSession(projectionGraph(weights, config), { provider: 'cpu' });
  const text = new TableFile(path.join(outDir, EMBEDDING_FILES.textProjected), dtype);
  try {
    for (let start = 0; start < t.textVocabSize; start += PROJECTION_CHUNK_ROWS) {
      const numRows = Math.min(PROJECTION_CHUNK_ROWS, t.textVocabSize - start);
      const rows = weights.readRowsFloat32('talker.model.text_embedding.weight', start, numRows);
      const out = await runSession(session, { rows: tensor('float32', rows, [numRows, t.textHiddenSize]) });
      text.append(out.projected.data as Float32Array);
      onProgress({ phase: 'text-embedding', done: start + numRows, total: t.textVocabSize });
    }
  } finally {
    await disposeSession(session);
  }
  const textProjected = text.finish([t.textVocabSize, t.hiddenSize], 'T(id) = text_projection(text_embedding(id)), one row per text id');

  const codecFile = new TableFile(path.join(outDir, EMBEDDING_FILES.codec), dtype);
  codecFile.append(weights.readFloat32('talker.model.codec_embedding.weight'));
  const codec = codecFile.finish([t.vocabSize, t.hiddenSize], 'C(id): talker codec_embedding, one row per codec id');

  const numTables = config.numCodeGroups - 1;
  const cpFile = new TableFile(path.join(outDir, EMBEDDING_FILES.codePredictorCodec), dtype);
  for (let j = 0; j < numTables; j++) cpFile.append(weights.readFloat32(`talker.code_predictor.model.codec_embedding.${j}.weight`));
  const codePredictorCodec = cpFile.finish([numTables, config.codePredictor.vocabSize, t.hiddenSize], 'E_j(code) = table j (embeds codebook j + 1), talker width');
  return { textProjected, codec, codePredictorCodec };
}
