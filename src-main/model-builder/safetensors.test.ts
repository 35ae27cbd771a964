// Unit tests for the safetensors reader and writers: round trips, row reads and damaged files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import { SafetensorsFile, SafetensorsWriter, writeSafetensors } from './safetensors';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safetensors-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A safetensors file written by hand: the 8-byte header length, the JSON header, then numDataBytes zero bytes. */
function writeRaw(name: string, header: Record<string, unknown>, numDataBytes: number): string {
  const file = path.join(dir, name);
  const json = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(json.length));
  fs.writeFileSync(file, Buffer.concat([len, json, Buffer.alloc(numDataBytes)]));
  return file;
}

function ramp(n: number, scale = 0.25): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => (i - n / 2) * scale);
}

function expectStudioError(fn: () => unknown, code: string, pattern: RegExp): void {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StudioError);
    expect((err as StudioError).code).toBe(code);
    expect((err as StudioError).message).toMatch(pattern);
    return;
  }
  throw new Error('expected a StudioError');
}

describe('safetensors', () => {
  it('round-trips F32, F16 and BF16 tensors written in several chunks', () => {
    const file = path.join(dir, 'a.safetensors');
    const w = SafetensorsWriter.create(file, [
      { name: 'x', shape: [3, 4], dtype: 'F32' },
      { name: 'y', shape: [5], dtype: 'F16' },
      { name: 'z', shape: [2, 2, 2], dtype: 'BF16' },
    ]);
    const x = ramp(12);
    w.write(x.subarray(0, 5));
    w.write(x.subarray(5));
    w.write(ramp(5));
    w.write(ramp(8, 0.5));
    w.close();
    const f = SafetensorsFile.open(file);
    expect(f.names()).toEqual(['x', 'y', 'z']);
    expect([...f.readFloat32('x')]).toEqual([...x]);
    expect([...f.readFloat32('y')]).toEqual([...ramp(5)]); // quarter steps are exact in fp16
    expect([...f.readFloat32('z')]).toEqual([...ramp(8, 0.5)]);
    expect([...f.readRowsFloat32('x', 1, 2)]).toEqual([...x.subarray(4, 12)]);
    expect(f.info('z').shape).toEqual([2, 2, 2]);
    f.close();
  });

  it('writes an iterable of tensors whose shapes were not declared up front', () => {
    const file = path.join(dir, 'b.safetensors');
    function* tensors() {
      yield { name: 'first', shape: [2, 3], data: ramp(6) };
      yield { name: 'second', shape: [4], data: ramp(4, 1) };
    }
    writeSafetensors(file, tensors(), 'BF16', { format: 'pt' });
    const f = SafetensorsFile.open(file);
    expect(f.metadata.format).toBe('pt');
    expect([...f.readFloat32('second')]).toEqual([-2, -1, 0, 1]);
    expect(f.info('first').dtype).toBe('BF16');
    expect(fs.existsSync(`${file}.spool`)).toBe(false);
    f.close();
  });

  it('reports a missing file as model-missing', () => {
    expectStudioError(() => SafetensorsFile.open(path.join(dir, 'nope.safetensors')), 'model-missing', /does not exist/);
  });

  it('reports a truncated file with the byte counts', () => {
    const file = path.join(dir, 'c.safetensors');
    const w = SafetensorsWriter.create(file, [{ name: 'w', shape: [64], dtype: 'F32' }]);
    w.write(ramp(64));
    w.close();
    const full = fs.readFileSync(file);
    fs.writeFileSync(file, full.subarray(0, full.length - 10));
    expectStudioError(() => SafetensorsFile.open(file), 'model-invalid', /truncated: tensor 'w' ends at byte \d+ but the file has \d+/);
    fs.writeFileSync(file, full.subarray(0, 20));
    expectStudioError(() => SafetensorsFile.open(file), 'model-invalid', /header/);
  });

  it('rejects an unknown dtype naming the tensor', () => {
    const file = writeRaw('d.safetensors', { w: { dtype: 'F12', shape: [2], data_offsets: [0, 4] } }, 4);
    expectStudioError(() => SafetensorsFile.open(file), 'model-invalid', /tensor 'w' .* unknown dtype 'F12'/);
  });

  it('refuses to read integer tensors as float weights', () => {
    const file = writeRaw('e.safetensors', { ids: { dtype: 'I64', shape: [1], data_offsets: [0, 8] } }, 8);
    const f = SafetensorsFile.open(file);
    expectStudioError(() => f.readFloat32('ids'), 'model-invalid', /I64/);
    f.close();
  });
});
