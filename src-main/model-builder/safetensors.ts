/**
 * safetensors files: a file-descriptor reader (header JSON + offsets, tensors read with fs.read at
 * their offsets and converted bf16/fp16/fp32 → Float32Array; never the whole file in one buffer) and
 * streaming writers (SafetensorsWriter when the entries are known up front, writeSafetensors for an
 * iterable of tensors). Format: u64 LE header length, JSON header, then the data section.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { bfloat16BitsToFloat32, float16BitsToFloat32, float32ToBfloat16Bits, float32ToFloat16Bits } from '../model-format/float-bits';

export const SAFETENSORS_DTYPE_BYTES = {
  BOOL: 1, U8: 1, I8: 1, F8_E4M3: 1, F8_E5M2: 1, I16: 2, U16: 2, F16: 2, BF16: 2, I32: 4, U32: 4, F32: 4, F64: 8, I64: 8, U64: 8,
} as const;
export type SafetensorsDtype = keyof typeof SAFETENSORS_DTYPE_BYTES;
export type FloatStorage = 'F32' | 'F16' | 'BF16';

export interface TensorInfo {
  name: string;
  dtype: SafetensorsDtype;
  shape: number[];
  /** Absolute byte offset in the file. */
  byteOffset: number;
  byteLength: number;
}

const READ_CHUNK_BYTES = 16 * 1024 * 1024;
const MAX_HEADER_BYTES = 100 * 1024 * 1024;

export class SafetensorsFile {
  readonly filePath: string;
  readonly metadata: Record<string, string>;
  private readonly fd: number;
  private readonly tensors: Map<string, TensorInfo>;

  private constructor(filePath: string, fd: number, tensors: Map<string, TensorInfo>, metadata: Record<string, string>) {
    this.filePath = filePath;
    this.fd = fd;
    this.tensors = tensors;
    this.metadata = metadata;
  }

  /** Opens and validates the header; throws model-missing / model-invalid naming the file and the problem. */
  static open(filePath: string): SafetensorsFile {
    if (!fs.existsSync(filePath)) {
      throw new StudioError('model-missing', `safetensors file ${filePath} does not exist; download the checkpoint again or fix the path`, { path: filePath });
    }
    const fd = fs.openSync(filePath, 'r');
    try {
      const fileBytes = fs.fstatSync(fd).size;
      const invalid = (what: string, details: Record<string, string | number> = {}) =>
        new StudioError('model-invalid', `safetensors file ${filePath} ${what}; the file is damaged or truncated, download it again`, { path: filePath, fileBytes, ...details });
      if (fileBytes < 8) throw invalid(`is ${fileBytes} bytes, shorter than the 8-byte header length`);
      const lengthBytes = Buffer.alloc(8);
      fs.readSync(fd, lengthBytes, 0, 8, 0);
      const headerBytes = Number(lengthBytes.readBigUInt64LE(0));
      if (headerBytes > MAX_HEADER_BYTES || 8 + headerBytes > fileBytes) {
        throw invalid(`declares a ${headerBytes}-byte header but has ${fileBytes} bytes in all`, { headerBytes });
      }
      const headerBuffer = Buffer.alloc(headerBytes);
      fs.readSync(fd, headerBuffer, 0, headerBytes, 8);
      let header: Record<string, unknown>;
      try {
        header = JSON.parse(headerBuffer.toString('utf8')) as Record<string, unknown>;
      } catch (err) {
        throw invalid(`has a header that is not JSON (${(err as Error).message})`);
      }
      const dataStart = 8 + headerBytes;
      const tensors = new Map<string, TensorInfo>();
      let metadata: Record<string, string> = {};
      for (const [name, raw] of Object.entries(header)) {
        if (name === '__metadata__') {
          metadata = raw as Record<string, string>;
          continue;
        }
        const entry = raw as { dtype: string; shape: number[]; data_offsets: [number, number] };
        if (!(entry.dtype in SAFETENSORS_DTYPE_BYTES)) {
          throw new StudioError('model-invalid', `tensor '${name}' in ${filePath} has unknown dtype '${entry.dtype}'; supported: ${Object.keys(SAFETENSORS_DTYPE_BYTES).join(', ')}`, {
            path: filePath,
            tensor: name,
            dtype: String(entry.dtype),
          });
        }
        const dtype = entry.dtype as SafetensorsDtype;
        const [begin, end] = entry.data_offsets;
        const numElements = entry.shape.reduce((a, b) => a * b, 1);
        if (end - begin !== numElements * SAFETENSORS_DTYPE_BYTES[dtype]) {
          throw invalid(`has tensor '${name}' [${entry.shape.join(', ')}] ${dtype} spanning ${end - begin} bytes instead of ${numElements * SAFETENSORS_DTYPE_BYTES[dtype]}`, { tensor: name });
        }
        if (dataStart + end > fileBytes) {
          throw invalid(`is truncated: tensor '${name}' ends at byte ${dataStart + end} but the file has ${fileBytes}`, { tensor: name, tensorEndByte: dataStart + end });
        }
        tensors.set(name, { name, dtype, shape: entry.shape, byteOffset: dataStart + begin, byteLength: end - begin });
      }
      return new SafetensorsFile(filePath, fd, tensors, metadata);
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
  }

  names(): string[] {
    return [...this.tensors.keys()];
  }

  has(name: string): boolean {
    return this.tensors.has(name);
  }

  info(name: string): TensorInfo {
    const t = this.tensors.get(name);
    if (!t) {
      throw new StudioError('model-invalid', `tensor '${name}' is missing from ${this.filePath}; the checkpoint does not match this model type`, { path: this.filePath, tensor: name });
    }
    return t;
  }

  /** The whole tensor as float32 values. */
  readFloat32(name: string): Float32Array {
    const t = this.info(name);
    return this.readFloatRange(t, 0, t.byteLength / SAFETENSORS_DTYPE_BYTES[t.dtype]);
  }

  /** Rows [startRow, startRow + numRows) of a tensor (first axis), as float32. */
  readRowsFloat32(name: string, startRow: number, numRows: number): Float32Array {
    const t = this.info(name);
    const rowElements = t.shape.slice(1).reduce((a, b) => a * b, 1);
    if (startRow < 0 || startRow + numRows > t.shape[0]) {
      throw new StudioError('internal', `rows ${startRow}..${startRow + numRows} are outside tensor '${name}' with ${t.shape[0]} rows`, { tensor: name });
    }
    return this.readFloatRange(t, startRow * rowElements, numRows * rowElements);
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  private readFloatRange(t: TensorInfo, firstElement: number, numElements: number): Float32Array {
    const elementBytes = SAFETENSORS_DTYPE_BYTES[t.dtype];
    if (t.dtype !== 'F32' && t.dtype !== 'F16' && t.dtype !== 'BF16') {
      throw new StudioError('model-invalid', `tensor '${t.name}' in ${this.filePath} is ${t.dtype}; only F32, F16 and BF16 can be read as float weights`, {
        tensor: t.name,
        dtype: t.dtype,
      });
    }
    const out = new Float32Array(numElements);
    const elementsPerChunk = Math.floor(READ_CHUNK_BYTES / elementBytes);
    const scratch = Buffer.alloc(Math.min(numElements, elementsPerChunk) * elementBytes);
    for (let done = 0; done < numElements; done += elementsPerChunk) {
      const count = Math.min(elementsPerChunk, numElements - done);
      const byteCount = count * elementBytes;
      readFully(this.fd, scratch, byteCount, t.byteOffset + (firstElement + done) * elementBytes);
      const target = out.subarray(done, done + count);
      if (t.dtype === 'F32') target.set(new Float32Array(scratch.buffer, scratch.byteOffset, count));
      else {
        const bits = new Uint16Array(scratch.buffer, scratch.byteOffset, count);
        if (t.dtype === 'BF16') bfloat16BitsToFloat32(bits, target);
        else float16BitsToFloat32(bits, target);
      }
    }
    return out;
  }
}

function readFully(fd: number, buffer: Buffer, numBytes: number, position: number): void {
  let done = 0;
  while (done < numBytes) {
    const n = fs.readSync(fd, buffer, done, numBytes - done, position + done);
    if (n === 0) throw new StudioError('model-invalid', `unexpected end of file at byte ${position + done}; the safetensors file is truncated`, { position: position + done });
    done += n;
  }
}

export interface TensorEntry {
  name: string;
  shape: readonly number[];
  dtype: FloatStorage;
}

/** Encodes fp32 values in a float storage type as little-endian bytes. */
export function encodeFloats(values: Float32Array, dtype: FloatStorage): Uint8Array {
  const view = dtype === 'F32' ? values : dtype === 'BF16' ? float32ToBfloat16Bits(values) : float32ToFloat16Bits(values);
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/**
 * Streams tensors into a safetensors file whose entries are known up front: the header is written on
 * create, then data is appended with write() in entry order, in any number of chunks per tensor.
 */
export class SafetensorsWriter {
  private readonly fd: number;
  private readonly entries: { entry: TensorEntry; numBytes: number }[];
  private position: number;
  private entryIndex = 0;
  private entryBytesWritten = 0;
  private readonly filePath: string;

  private constructor(filePath: string, fd: number, entries: { entry: TensorEntry; numBytes: number }[], dataStart: number) {
    this.filePath = filePath;
    this.fd = fd;
    this.entries = entries;
    this.position = dataStart;
    this.skipEmptyEntries();
  }

  private skipEmptyEntries(): void {
    while (this.entryIndex < this.entries.length && this.entries[this.entryIndex].numBytes === 0) this.entryIndex++;
  }

  static create(filePath: string, entries: readonly TensorEntry[], metadata: Record<string, string> = {}): SafetensorsWriter {
    const header: Record<string, unknown> = { __metadata__: metadata };
    let offset = 0;
    const sized = entries.map((entry) => {
      const numBytes = entry.shape.reduce((a, b) => a * b, 1) * SAFETENSORS_DTYPE_BYTES[entry.dtype];
      header[entry.name] = { dtype: entry.dtype, shape: [...entry.shape], data_offsets: [offset, offset + numBytes] };
      offset += numBytes;
      return { entry, numBytes };
    });
    let json = JSON.stringify(header);
    json += ' '.repeat((8 - ((json.length + 8) % 8)) % 8); // data section starts 8-byte aligned
    const headerBuffer = Buffer.from(json, 'utf8');
    const lengthBytes = Buffer.alloc(8);
    lengthBytes.writeBigUInt64LE(BigInt(headerBuffer.length));
    fs.mkdirSync(path.dirname(filePath), { recursive: true });
    const fd = fs.openSync(filePath, 'w');
    fs.writeSync(fd, lengthBytes, 0, 8, 0);
    fs.writeSync(fd, headerBuffer, 0, headerBuffer.length, 8);
    return new SafetensorsWriter(filePath, fd, sized, 8 + headerBuffer.length);
  }

  /** Appends fp32 values to the current tensor (converted to its dtype); moves on when it is full. */
  write(values: Float32Array): void {
    const current = this.entries[this.entryIndex];
    if (!current) throw new StudioError('internal', `write past the last tensor of ${this.filePath}`, { path: this.filePath });
    const bytes = encodeFloats(values, current.entry.dtype);
    if (this.entryBytesWritten + bytes.byteLength > current.numBytes) {
      throw new StudioError('internal', `tensor '${current.entry.name}' got ${this.entryBytesWritten + bytes.byteLength} bytes but holds ${current.numBytes}; write exactly its shape`, {
        tensor: current.entry.name,
      });
    }
    this.writeBytes(bytes);
  }

  /** Appends already encoded bytes; they may span several tensors. */
  writeBytes(bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.byteLength) done += fs.writeSync(this.fd, bytes, done, bytes.byteLength - done, this.position + done);
    this.position += bytes.byteLength;
    let remaining = bytes.byteLength;
    while (remaining > 0 && this.entryIndex < this.entries.length) {
      const room = this.entries[this.entryIndex].numBytes - this.entryBytesWritten;
      const used = Math.min(room, remaining);
      this.entryBytesWritten += used;
      remaining -= used;
      if (this.entryBytesWritten === this.entries[this.entryIndex].numBytes) {
        this.entryIndex++;
        this.entryBytesWritten = 0;
        this.skipEmptyEntries();
      }
    }
    if (remaining > 0) throw new StudioError('internal', `${remaining} bytes written past the last tensor of ${this.filePath}`, { path: this.filePath });
  }

  /** Closes the file; throws if a tensor was left unwritten. */
  close(): void {
    fs.fsyncSync(this.fd);
    fs.closeSync(this.fd);
    if (this.entryIndex !== this.entries.length) {
      const missing = this.entries[this.entryIndex].entry.name;
      throw new StudioError('internal', `safetensors file ${this.filePath} closed before tensor '${missing}' was written`, { tensor: missing });
    }
  }
}

/**
 * Writes an iterable of tensors whose shapes are not known in advance: data is spooled to a side file,
 * then the header is written and the data copied behind it in 16 MiB pieces.
 */
export function writeSafetensors(filePath: string, tensors: Iterable<{ name: string; shape: readonly number[]; data: Float32Array }>, dtype: FloatStorage, metadata: Record<string, string> = {}): void {
  const spoolPath = `${filePath}.spool`;
  fs.mkdirSync(path.dirname(filePath), { recursive: true });
  const spoolFd = fs.openSync(spoolPath, 'w+');
  const entries: TensorEntry[] = [];
  try {
    let position = 0;
    for (const t of tensors) {
      const numElements = t.shape.reduce((a, b) => a * b, 1);
      if (numElements !== t.data.length) {
        throw new StudioError('internal', `tensor '${t.name}' has ${t.data.length} values for shape [${t.shape.join(', ')}] (${numElements})`, { tensor: t.name });
      }
      const bytes = encodeFloats(t.data, dtype);
      let done = 0;
      while (done < bytes.byteLength) done += fs.writeSync(spoolFd, bytes, done, bytes.byteLength - done, position + done);
      position += bytes.byteLength;
      entries.push({ name: t.name, shape: [...t.shape], dtype });
    }
    const writer = SafetensorsWriter.create(filePath, entries, metadata);
    const chunk = Buffer.alloc(READ_CHUNK_BYTES);
    for (let sourcePos = 0; sourcePos < position; ) {
      const n = Math.min(position - sourcePos, chunk.length);
      readFully(spoolFd, chunk, n, sourcePos);
      writer.writeBytes(chunk.subarray(0, n));
      sourcePos += n;
    }
    writer.close();
  } finally {
    fs.closeSync(spoolFd);
    fs.rmSync(spoolPath, { force: true });
  }
}
