/**
 * A small, static waveform of one take (Speak's history, A/B): the loudest sample of each slice
 * drawn as a bar, the part already played in the accent colour, and a playhead while it sounds.
 * An SVG with no audio of its own, cheap enough for a list of fifty. A click asks to play from
 * that point. Store-agnostic.
 */
import { useId, useMemo, type MouseEvent } from 'react';

/** The loudest absolute sample of each of `numBars` equal slices of `pcm`, 0…1. */
export function waveformPeaks(pcm: Float32Array, numBars: number): Float32Array {
  const peaks = new Float32Array(numBars);
  if (pcm.length === 0) return peaks;
  for (let bar = 0; bar < numBars; bar++) {
    const start = Math.floor((bar * pcm.length) / numBars);
    const end = Math.max(start + 1, Math.floor(((bar + 1) * pcm.length) / numBars));
    let peak = 0;
    for (let i = start; i < end && i < pcm.length; i++) peak = Math.max(peak, Math.abs(pcm[i]));
    peaks[bar] = Math.min(1, peak);
  }
  return peaks;
}

export interface TakeWaveformProps {
  pcm: Float32Array;
  sampleRateHz: number;
  /** Where playback is, in seconds; null while it is not sounding. */
  positionS: number | null;
  label: string;
  onSeek?(timeS: number): void;
  numBars?: number;
}

const HEIGHT = 40;

export function TakeWaveform({ pcm, sampleRateHz, positionS, label, onSeek, numBars = 160 }: TakeWaveformProps) {
  const clipId = `played-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const peaks = useMemo(() => waveformPeaks(pcm, numBars), [pcm, numBars]);
  const durationS = pcm.length / sampleRateHz;
  // One bar per unit of width; each at least a hair tall so silence still shows where the take is.
  const path = useMemo(() => {
    let d = '';
    peaks.forEach((p, i) => {
      const half = Math.max(0.5, (p * HEIGHT) / 2);
      d += `M${i + 0.5} ${(HEIGHT / 2 - half).toFixed(2)}V${(HEIGHT / 2 + half).toFixed(2)}`;
    });
    return d;
  }, [peaks]);
  const playedBars = positionS === null || durationS === 0 ? 0 : (Math.min(positionS, durationS) / durationS) * numBars;
  const seek = (e: MouseEvent<SVGSVGElement>) => {
    if (!onSeek) return;
    const box = e.currentTarget.getBoundingClientRect();
    onSeek(box.width > 0 ? ((e.clientX - box.left) / box.width) * durationS : 0);
  };
  return (
    <svg
      className={`take-waveform${positionS !== null ? ' sounding' : ''}`}
      data-testid="take-waveform"
      data-num-bars={numBars}
      viewBox={`0 0 ${numBars} ${HEIGHT}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={`${label}: waveform, ${durationS.toFixed(2)} s`}
      onClick={seek}
    >
      <clipPath id={clipId}>
        <rect x={0} y={0} width={playedBars} height={HEIGHT} />
      </clipPath>
      <path d={path} className="take-waveform-bars" vectorEffect="non-scaling-stroke" />
      {positionS !== null && <path d={path} className="take-waveform-played" vectorEffect="non-scaling-stroke" clipPath={`url(#${clipId})`} />}
      {positionS !== null && <line className="take-waveform-head" x1={playedBars} x2={playedBars} y1={0} y2={HEIGHT} vectorEffect="non-scaling-stroke" />}
    </svg>
  );
}
