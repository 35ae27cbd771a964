/**
 * The live GPU charts of a benchmark run: utilisation % and VRAM MiB from the bench's nvidia-smi sampler.
 * Where no sampler reports (no nvidia-smi, no working driver: every sample's GPU figures null), the same two
 * chart places say "no GPU sampler" and the sampler's reason instead of showing two empty plots.
 */
import type { BenchSample } from '../../../src-shared/contract/bench';
import { LiveChart, type ChartBand } from '../../components/LiveChart';

interface GpuChartsProps {
  samples: readonly BenchSample[];
  data: Record<string, number | null>[];
  bands: readonly ChartBand[];
  syncId: string;
}

/** Why no GPU figures came: the samples' note, or null while a sampler reports (or before the first sample). */
export function noGpuSamplerNote(samples: readonly BenchSample[]): string | null {
  if (samples.length === 0 || samples.some((s) => s.gpuUtilPct !== null || s.vramMiB !== null)) return null;
  const note = [...samples].reverse().find((s) => s.gpuNote)?.gpuNote;
  return note ? `no GPU sampler: ${note}` : 'no GPU sampler';
}

function NoSamplerChart({ testId, title, unit, note }: { testId: string; title: string; unit: string; note: string }) {
  return (
    <figure className="chart" data-testid={testId} data-unit={unit} data-num-points={0} aria-label={`${title} chart in ${unit}: ${note}`}>
      <h3>
        {title} <span className="muted">({unit})</span>
      </h3>
      <p className="hint" data-testid={`${testId}-none`}>{note}</p>
    </figure>
  );
}

export function GpuCharts({ samples, data, bands, syncId }: GpuChartsProps) {
  const note = noGpuSamplerNote(samples);
  if (note) {
    return (
      <>
        <NoSamplerChart testId="chart-gpu" title="GPU" unit="%" note={note} />
        <NoSamplerChart testId="chart-vram" title="VRAM" unit="MiB" note={note} />
      </>
    );
  }
  return (
    <>
      <LiveChart testId="chart-gpu" title="GPU" unit="%" syncId={syncId} bands={bands} data={data} xKey="t" series={[{ key: 'gpu', label: 'GPU', color: '#37474f' }]} />
      <LiveChart testId="chart-vram" title="VRAM" unit="MiB" syncId={syncId} bands={bands} data={data} xKey="t" series={[{ key: 'vram', label: 'VRAM', color: '#8d6e63' }]} />
    </>
  );
}
