/**
 * Host-side embedding lookups over the manifest's row-major tables (text_projected, codec,
 * code-predictor codec): one positioned read per row, fp16 rows widened to float32. Owns the file
 * descriptors; dispose() closes them. Implements EmbeddingLookup for the frame steps.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StudioError } from '../../../src-shared/errors';
import { float16BitsToFloat32 } from '../../model-format/float-bits';
import type { ModelManifest, TableSpec } from '../../model-format/manifest';
import type { EmbeddingLookup } from './stages';

class RowTable {
  private readonly fd: number;
  private readonly rowSize: number;
  private readonly bytesPerValue: number;
  private readonly numRows: number;
  private readonly cache = new Map<number, Float32Array>();

  constructor(builtDir: string, readonly spec: TableSpec, private readonly name: string) {
    this.fd = fs.openSync(path.join(builtDir, spec.file), 'r');
    this.rowSize = spec.shape[spec.shape.length - 1];
    this.numRows = spec.shape.slice(0, -1).reduce((a, b) => a * b, 1);
    this.bytesPerValue = spec.dtype === 'float16' ? 2 : 4;
  }

  /** Row `index` of the flattened leading dims, cached (prompt and code rows repeat a lot). */
  row(index: number): Float32Array {
    const hit = this.cache.get(index);
    if (hit) return hit;
    if (!Number.isInteger(index) || index < 0 || index >= this.numRows) {
      throw new StudioError('internal', `row ${index} is outside the ${this.name} table (${this.numRows} rows)`, { table: this.name, index });
    }
    const numBytes = this.rowSize * this.bytesPerValue;
    const buffer = Buffer.alloc(numBytes);
    fs.readSync(this.fd, buffer, 0, numBytes, this.spec.byteOffset + index * numBytes);
    const row =
      this.bytesPerValue === 2
        ? float16BitsToFloat32(new Uint16Array(buffer.buffer, buffer.byteOffset, this.rowSize))
        : new Float32Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + numBytes));
    if (this.cache.size < 65536) this.cache.set(index, row);
    return row;
  }

  dispose(): void {
    fs.closeSync(this.fd);
  }
}

function addInto(out: Float32Array, offset: number, row: Float32Array): void {
  for (let k = 0; k < row.length; k++) out[offset + k] += row[k];
}

export class EmbeddingTables implements EmbeddingLookup {
  readonly hiddenSize: number;
  private readonly text: RowTable;
  private readonly codec: RowTable;
  private readonly codePredictor: RowTable;
  private readonly codesPerTable: number;

  constructor(builtDir: string, manifest: ModelManifest) {
    const e = manifest.embeddings;
    this.hiddenSize = manifest.talker.hiddenSize;
    this.text = new RowTable(builtDir, e.textProjected, 'text_projected');
    this.codec = new RowTable(builtDir, e.codec, 'codec_embedding');
    this.codePredictor = new RowTable(builtDir, e.codePredictorCodec, 'code_predictor_embedding');
    this.codesPerTable = e.codePredictorCodec.shape[1];
  }

  addText(textId: number, out: Float32Array, offset: number): void {
    addInto(out, offset, this.text.row(textId));
  }

  addCodec(codecId: number, out: Float32Array, offset: number): void {
    addInto(out, offset, this.codec.row(codecId));
  }

  addCodePredictorCodec(table: number, code: number, out: Float32Array, offset: number): void {
    addInto(out, offset, this.codePredictor.row(table * this.codesPerTable + code));
  }

  dispose(): void {
    for (const t of [this.text, this.codec, this.codePredictor]) t.dispose();
  }
}
