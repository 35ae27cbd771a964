// Unit tests for parsing the `nvidia-smi --query-gpu=… -lms 250` stream on recorded output.
import { describe, expect, it } from 'vitest';
import { createLineSplitter, parseNvidiaSmiLine } from './nvidia-smi-parser';

// Recorded-style output of
//   nvidia-smi --query-gpu=utilization.gpu,memory.used,memory.total --format=csv,noheader,nounits -lms 250 --id=0
// on an H200 while a run starts (memory grows as sessions load), one line per 250 ms, with one
// unsupported reading and Windows line endings in the middle as some drivers print.
const RECORDED_NVIDIA_SMI = [
  '0, 523, 143771',
  '0, 523, 143771',
  '12, 2871, 143771',
  '87, 6215, 143771',
  '[N/A], 6215, 143771',
  '93, 6321, 143771\r',
  '100, 6643, 143771',
  '',
].join('\n');

describe('parseNvidiaSmiLine', () => {
  it('parses utilisation, used and total memory', () => {
    expect(parseNvidiaSmiLine('87, 6215, 143771')).toEqual({ utilizationGpuPct: 87, memoryUsedMiB: 6215, memoryTotalMiB: 143771 });
  });

  it('maps [N/A] to null instead of zero', () => {
    expect(parseNvidiaSmiLine('[N/A], 6215, [Not Supported]')).toEqual({ utilizationGpuPct: null, memoryUsedMiB: 6215, memoryTotalMiB: null });
  });

  it('rejects blank lines, error text and lines with the wrong number of fields', () => {
    expect(parseNvidiaSmiLine('')).toBeNull();
    expect(parseNvidiaSmiLine("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.")).toBeNull();
    expect(parseNvidiaSmiLine('1, 2')).toBeNull();
    expect(parseNvidiaSmiLine('utilization.gpu [%], memory.used [MiB], memory.total [MiB]')).toBeNull();
  });
});

describe('createLineSplitter', () => {
  it('reassembles lines split across arbitrary chunks of the recorded stream', () => {
    const readings: unknown[] = [];
    const splitter = createLineSplitter((line) => {
      const r = parseNvidiaSmiLine(line);
      if (r) readings.push(r);
    });
    // feed the recording in 7-byte chunks so most lines straddle two chunks
    for (let i = 0; i < RECORDED_NVIDIA_SMI.length; i += 7) splitter.push(RECORDED_NVIDIA_SMI.slice(i, i + 7));
    splitter.end();
    expect(readings).toHaveLength(7);
    expect(readings[4]).toEqual({ utilizationGpuPct: null, memoryUsedMiB: 6215, memoryTotalMiB: 143771 });
    expect(readings[5]).toEqual({ utilizationGpuPct: 93, memoryUsedMiB: 6321, memoryTotalMiB: 143771 });
    expect(readings[6]).toEqual({ utilizationGpuPct: 100, memoryUsedMiB: 6643, memoryTotalMiB: 143771 });
  });

  it('flushes a last line without a newline on end', () => {
    const lines: string[] = [];
    const splitter = createLineSplitter((l) => lines.push(l));
    splitter.push('1, 2, 3\n4, 5');
    splitter.push(', 6');
    splitter.end();
    expect(lines).toEqual(['1, 2, 3', '4, 5, 6']);
  });
});
