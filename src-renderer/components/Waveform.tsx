/**
 * The whole-clip waveform: wavesurfer.js with one region per turn and zero-length markers for
 * marks; play, pause, seek and zoom through an imperative handle. The audio is handed over as a
 * float WAV blob (no network). Store-agnostic.
 */
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.esm.js';
import { encodeWav } from './wav-encode';

export interface WaveformRegion {
  id: string;
  startS: number;
  endS: number;
  label: string;
}

export interface WaveformMarker {
  name: string;
  timeS: number;
}

export interface WaveformHandle {
  playPause(): void;
  pause(): void;
  seek(timeS: number): void;
  /** Plays one stretch of the clip (for A/B of a turn). */
  playRange(startS: number, endS: number): void;
}

export interface WaveformProps {
  pcm: Float32Array;
  sampleRateHz: number;
  regions: WaveformRegion[];
  markers: WaveformMarker[];
  zoomPxPerS: number;
  onPlayingChange?(playing: boolean): void;
  onTime?(timeS: number): void;
  ref?: Ref<WaveformHandle>;
}

const REGION_COLORS = ['rgba(47, 111, 237, 0.18)', 'rgba(237, 140, 47, 0.18)'];

export function Waveform(props: WaveformProps) {
  const host = useRef<HTMLDivElement>(null);
  const ws = useRef<WaveSurfer | null>(null);
  const regions = useRef<ReturnType<typeof RegionsPlugin.create> | null>(null);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const plugin = RegionsPlugin.create();
    const w = WaveSurfer.create({ container: host.current!, height: 96, waveColor: '#8aa4d6', progressColor: '#2f6fed', cursorColor: '#c62828', plugins: [plugin], dragToSeek: true });
    w.on('play', () => latest.current.onPlayingChange?.(true));
    w.on('pause', () => latest.current.onPlayingChange?.(false));
    w.on('finish', () => latest.current.onPlayingChange?.(false));
    w.on('timeupdate', (t) => latest.current.onTime?.(t));
    ws.current = w;
    regions.current = plugin;
    return () => {
      w.destroy();
      ws.current = null;
    };
  }, []);

  useEffect(() => {
    const w = ws.current;
    const plugin = regions.current;
    if (!w || !plugin) return;
    const blob = new Blob([encodeWav(props.pcm, props.sampleRateHz, 'float32') as BlobPart], { type: 'audio/wav' });
    let cancelled = false;
    host.current?.setAttribute('data-num-regions', '0');
    w.loadBlob(blob)
      .then(() => {
        if (cancelled) return;
        plugin.clearRegions();
        latest.current.regions.forEach((r, i) =>
          plugin.addRegion({ id: r.id, start: r.startS, end: r.endS, content: r.label, color: REGION_COLORS[i % REGION_COLORS.length], drag: false, resize: false }),
        );
        for (const m of latest.current.markers) plugin.addRegion({ id: `mark-${m.name}`, start: m.timeS, content: m.name, color: '#c62828', drag: false, resize: false });
        host.current?.setAttribute('data-num-regions', String(latest.current.regions.length));
        w.zoom(latest.current.zoomPxPerS);
      })
      .catch(() => {
        // superseded by a newer load
      });
    return () => {
      cancelled = true;
    };
  }, [props.pcm, props.sampleRateHz, props.regions, props.markers]);

  useEffect(() => {
    const w = ws.current;
    if (w && w.getDuration() > 0) w.zoom(props.zoomPxPerS);
  }, [props.zoomPxPerS]);

  useImperativeHandle(
    props.ref,
    () => ({
      playPause: () => void ws.current?.playPause(),
      pause: () => ws.current?.pause(),
      seek: (timeS) => ws.current?.setTime(timeS),
      playRange: (startS, endS) => void ws.current?.play(startS, endS),
    }),
    [],
  );

  return <div ref={host} className="waveform" data-testid="waveform" role="img" aria-label={`Waveform, ${props.regions.length} turns`} />;
}
