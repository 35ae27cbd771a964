/**
 * Parses the stream printed by
 *   nvidia-smi --query-gpu=utilization.gpu,memory.used,memory.total --format=csv,noheader,nounits -lms 250
 * into typed samples. Pure: the caller feeds stdout chunks and stamps each line with its own clock.
 * '[N/A]' and unparsable fields become null rather than zeros.
 */

export interface GpuReading {
  utilizationGpuPct: number | null;
  memoryUsedMiB: number | null;
  memoryTotalMiB: number | null;
}

export interface GpuSample extends GpuReading {
  /** Arrival time on the benchmark's clock (ms since run start). */
  tMs: number;
}

/** The query fields, in the order parseNvidiaSmiLine expects them. */
export const NVIDIA_SMI_QUERY_FIELDS = ['utilization.gpu', 'memory.used', 'memory.total'] as const;

function parseField(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const text = raw.trim();
  if (text === '' || text.startsWith('[')) return null; // [N/A], [Not Supported], [Unknown Error]
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** One CSV line → reading; null for blank lines and lines that are not readings (error text, headers). */
export function parseNvidiaSmiLine(line: string): GpuReading | null {
  const fields = line.trim().split(',');
  if (fields.length !== NVIDIA_SMI_QUERY_FIELDS.length) return null;
  const reading = {
    utilizationGpuPct: parseField(fields[0]),
    memoryUsedMiB: parseField(fields[1]),
    memoryTotalMiB: parseField(fields[2]),
  };
  const allNull = reading.utilizationGpuPct === null && reading.memoryUsedMiB === null && reading.memoryTotalMiB === null;
  const anyText = fields.some((f) => f.trim() !== '' && !f.trim().startsWith('[') && !Number.isFinite(Number(f.trim())));
  return allNull || anyText ? null : reading;
}

/** Splits arbitrary stdout chunks into complete lines (a line may span chunks; '\r\n' is accepted). */
export function createLineSplitter(onLine: (line: string) => void): { push(chunk: string): void; end(): void } {
  let pending = '';
  return {
    push(chunk: string) {
      pending += chunk;
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        onLine(pending.slice(0, newline).replace(/\r$/, ''));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    },
    end() {
      if (pending.length > 0) onLine(pending.replace(/\r$/, ''));
      pending = '';
    },
  };
}
