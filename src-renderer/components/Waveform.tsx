/**
 * The whole-clip waveform: wavesurfer.js with a time ruler, one region per turn, zero-length
 * markers for marks, and a selection made by dragging across the waveform (played once or looped);
 * play, pause, seek and zoom through an imperative handle. From the keyboard it is a slider over
 * the clip's time: arrows seek (Shift or Page keys by more), Home and End go to the ends, Space
 * plays or pauses. The audio is handed over as a float WAV blob (no network). Store-agnostic.
 */
import { useEffect, useImperativeHandle, useRef, type KeyboardEvent, type Ref } from 'react';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.esm.js';
import TimelinePlugin from 'wavesurfer.js/dist/plugins/timeline.esm.js';
import { encodeWav } from './wav-encode';

export interface WaveformRegion {
  id: string;
  startS: number;
  endS: number;
  label: string;
  /** The region's fill; absent: alternating defaults. */
  color?: string;
  /** The region's tooltip. */
  title?: string;
  /** Its label drags it and its edges resize it (reported through onRegionDrop); the rest still lets a drag select. */
  editable?: boolean;
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
  /** Plays the selection from its start; with loop on it repeats until paused. */
  playSelection(): void;
  clearSelection(): void;
}

/** The dragged selection, in seconds. */
export interface WaveformSelection {
  startS: number;
  endS: number;
}

const SELECTION_ID = 'selection';

export interface WaveformProps {
  pcm: Float32Array;
  sampleRateHz: number;
  regions: WaveformRegion[];
  markers: WaveformMarker[];
  zoomPxPerS: number;
  onPlayingChange?(playing: boolean): void;
  onTime?(timeS: number): void;
  onSelection?(selection: WaveformSelection | null): void;
  /** Repeat the selection while playing it. */
  loop?: boolean;
  /** An editable region was moved or resized to [startS, endS]. */
  onRegionDrop?(id: string, startS: number, endS: number): void;
  ref?: Ref<WaveformHandle>;
}

const REGION_COLORS = ['rgba(47, 111, 237, 0.18)', 'rgba(237, 140, 47, 0.18)'];

/** How far an arrow key seeks, and Shift+arrow or Page Up/Down. */
export const SEEK_STEP_S = 1;
export const SEEK_BIG_STEP_S = 5;

/** The seek target of a key at `timeS` in a clip of `durationS` (null: not a seek key). */
export function seekTargetS(key: string, shiftKey: boolean, timeS: number, durationS: number): number | null {
  const step = shiftKey ? SEEK_BIG_STEP_S : SEEK_STEP_S;
  const target =
    key === 'ArrowRight' || key === 'ArrowUp' ? timeS + step
    : key === 'ArrowLeft' || key === 'ArrowDown' ? timeS - step
    : key === 'PageUp' ? timeS + SEEK_BIG_STEP_S
    : key === 'PageDown' ? timeS - SEEK_BIG_STEP_S
    : key === 'Home' ? 0
    : key === 'End' ? durationS
    : null;
  return target === null ? null : Math.max(0, Math.min(durationS, target));
}

function timeText(timeS: number, durationS: number): string {
  return `${timeS.toFixed(2)} s of ${durationS.toFixed(2)} s`;
}

export function Waveform(props: WaveformProps) {
  const host = useRef<HTMLDivElement>(null);
  const ws = useRef<WaveSurfer | null>(null);
  const regions = useRef<ReturnType<typeof RegionsPlugin.create> | null>(null);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const plugin = RegionsPlugin.create();
    // Ticks every 0.25 s, a label every second (primary) and half second (secondary).
    const ruler = TimelinePlugin.create({ height: 18, timeInterval: 0.25, primaryLabelInterval: 4, secondaryLabelInterval: 2, formatTimeCallback: (s) => `${Number(s.toFixed(1))} s`, style: { color: '#9a9aa3', fontSize: '11px' } });
    const w = WaveSurfer.create({ container: host.current!, height: 96, waveColor: '#8aa4d6', progressColor: '#2f6fed', cursorColor: '#c62828', plugins: [plugin, ruler] });
    // Dragging selects a stretch (one selection at a time); a click still seeks.
    plugin.enableDragSelection({ id: SELECTION_ID, color: 'rgba(198, 40, 40, 0.22)' }, 3);
    const report = (r: { id: string; start: number; end: number }) => {
      host.current?.setAttribute('data-selection', `${r.start.toFixed(3)}-${r.end.toFixed(3)}`);
      latest.current.onSelection?.({ startS: r.start, endS: r.end });
    };
    plugin.on('region-created', (r) => {
      if (r.id !== SELECTION_ID) return;
      for (const other of plugin.getRegions()) if (other.id === SELECTION_ID && other !== r) other.remove();
      report(r);
    });
    plugin.on('region-updated', (r) => {
      if (r.id === SELECTION_ID) report(r);
      else if (latest.current.regions.some((x) => x.id === r.id && x.editable)) latest.current.onRegionDrop?.(r.id, r.start, r.end);
    });
    plugin.on('region-out', (r) => {
      if (r.id === SELECTION_ID && latest.current.loop && w.isPlaying()) r.play();
    });
    w.on('play', () => latest.current.onPlayingChange?.(true));
    w.on('pause', () => latest.current.onPlayingChange?.(false));
    w.on('finish', () => latest.current.onPlayingChange?.(false));
    w.on('timeupdate', (t) => {
      // The slider's value for assistive technology, without a React render per frame.
      host.current?.setAttribute('aria-valuenow', t.toFixed(2));
      host.current?.setAttribute('aria-valuetext', timeText(t, w.getDuration()));
      latest.current.onTime?.(t);
    });
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
    // New audio (a regenerated take) replaces what may be playing: wavesurfer stops it without a
    // 'pause' the transport hears, which then read "Pause · playing at 0.00 s" with its clock stopped.
    latest.current.onPlayingChange?.(false);
    w.loadBlob(blob)
      .then(() => {
        if (cancelled) return;
        latest.current.onPlayingChange?.(w.isPlaying());
        latest.current.onTime?.(w.getCurrentTime());
        plugin.clearRegions();
        host.current?.removeAttribute('data-selection');
        latest.current.onSelection?.(null);
        // Turn regions and markers are labels only: they let pointer events through, so a drag over
        // them makes a selection (a region under the pointer would otherwise swallow the drag).
        const passThrough = (r: { element: HTMLElement | null }) => r.element && (r.element.style.pointerEvents = 'none');
        latest.current.regions.forEach((r, i) => {
          const editable = r.editable === true;
          const region = plugin.addRegion({ id: r.id, start: r.startS, end: r.endS, content: r.label, color: r.color ?? REGION_COLORS[i % REGION_COLORS.length], drag: editable, resize: editable });
          passThrough(region);
          if (r.title) region.element?.setAttribute('title', r.title);
          // The label and the edges take the pointer (events bubble to the region's own drag handling).
          if (editable) region.element?.querySelectorAll<HTMLElement>('[part~="region-content"], [part*="region-handle"]').forEach((el) => (el.style.pointerEvents = 'auto'));
          const label = region.element?.querySelector<HTMLElement>('[part~="region-content"]');
          if (editable && label) label.style.cursor = 'grab';
        });
        for (const m of latest.current.markers) passThrough(plugin.addRegion({ id: `mark-${m.name}`, start: m.timeS, content: m.name, color: '#c62828', drag: false, resize: false }));
        host.current?.setAttribute('data-num-regions', String(latest.current.regions.length));
        host.current?.setAttribute('aria-valuetext', timeText(w.getCurrentTime(), w.getDuration()));
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
      playSelection: () => regions.current?.getRegions().find((r) => r.id === SELECTION_ID)?.play(!latest.current.loop),
      clearSelection: () => {
        for (const r of regions.current?.getRegions() ?? []) if (r.id === SELECTION_ID) r.remove();
        host.current?.removeAttribute('data-selection');
        latest.current.onSelection?.(null);
      },
    }),
    [],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const w = ws.current;
    if (!w || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === ' ') {
      e.preventDefault();
      e.stopPropagation(); // the studio's own Space shortcut would toggle it a second time
      void w.playPause();
      return;
    }
    const target = seekTargetS(e.key, e.shiftKey, w.getCurrentTime(), w.getDuration());
    if (target === null) return;
    e.preventDefault();
    w.setTime(target);
  };

  return (
    <div
      ref={host}
      className="waveform"
      data-testid="waveform"
      role="slider"
      tabIndex={0}
      aria-label={`Waveform, ${props.regions.length} turns: arrows seek, Space plays or pauses`}
      aria-valuemin={0}
      aria-valuemax={Number((props.pcm.length / props.sampleRateHz).toFixed(2))}
      aria-valuenow={0}
      aria-valuetext={timeText(0, props.pcm.length / props.sampleRateHz)}
      aria-keyshortcuts="ArrowLeft ArrowRight Home End Space"
      onKeyDown={onKeyDown}
    />
  );
}
