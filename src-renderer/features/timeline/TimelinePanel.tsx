/**
 * The Timeline: the whole clip composed from each turn's chosen take on one waveform (a region
 * per turn named and coloured by its speaker, markers for marks, a mark when the document changed
 * after the audio was made), transport, zoom and fit-to-width, one block per turn with its takes
 * (TurnTakes.tsx), exports (any AudioFormat through main's encoders, or float WAV here), and the
 * processing trace.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useStudioStore } from '../../store/store';
import { Waveform, type WaveformSelection } from '../../components/Waveform';
import { downloadBytes, encodeWav, type WavSampleFormat } from '../../components/wav-encode';
import { composeTimeline, takeSamples } from '../../components/compose-timeline';
import { TurnTakes } from './TurnTakes';
import { MAX_ZOOM_PX_PER_S, MIN_ZOOM_PX_PER_S } from './timeline.slice';
import { timelinePlayer } from './timeline-player';
import { TraceTable } from './TraceTable';
import { fitZoomPxPerS, speakerRegions, staleAudioReason, turnVoice } from './speaker-regions';
import { editForRegionDrop } from './region-edits';
import { TURN_KEYS_HINT, steppedTakeId, turnKeyAction } from './turn-keys';
import { voiceDisplayName } from '../../components/voice-names';
import { exportAudioFile } from './export-actions';
import { hostBlockedProps, useHostBlocked } from '../../shared-state/useHostBlocked';
import { withChosenTakeSync } from '../../shared-state/chosen-take-sync';
import { normalizeLoudness } from '../../../src-main/audio/normalize-loudness';
import { AUDIO_FORMATS, type AudioFormat } from '../../../src-shared/audio-format';
import { toStudioError } from '../../../src-shared/errors';

const FORMAT_LABELS: { readonly [F in AudioFormat]: string } = {
  mp3: 'MP3',
  opus: 'Opus (Ogg)',
  aac: 'AAC (ADTS)',
  flac: 'FLAC',
  wav: 'WAV 16-bit',
  pcm: 'PCM (raw 16-bit)',
};

function formatS(samples: number, rateHz: number): string {
  return `${(samples / rateHz).toFixed(2)} s`;
}

export function TimelinePanel() {
  const baseLayout = useStudioStore((s) => s.baseLayout);
  const turns = useStudioStore((s) => s.turns);
  const clipAudio = useStudioStore((s) => s.clipAudio);
  const marks = useStudioStore((s) => s.marks);
  const trace = useStudioStore((s) => s.trace);
  const zoom = useStudioStore((s) => s.zoomPxPerS);
  const setZoom = useStudioStore((s) => s.setZoom);
  const projectName = useStudioStore((s) => s.projectName);
  const undo = useStudioStore((s) => s.undo);
  const redo = useStudioStore((s) => s.redo);
  const canUndo = useStudioStore((s) => s.undoStack.length > 0);
  const canRedo = useStudioStore((s) => s.redoStack.length > 0);
  const [playing, setPlaying] = useState(false);
  const [timeS, setTimeS] = useState(0);
  const [selection, setSelection] = useState<WaveformSelection | null>(null);
  const [loop, setLoop] = useState(false);
  const [exportFormat, setExportFormat] = useState<AudioFormat>('wav');
  const [normaliseExport, setNormaliseExport] = useState(true);
  const outputLoudness = useStudioStore((s) => s.outputLoudness);
  const [exportStatus, setExportStatus] = useState<string | null>(null);
  // Export encodes in main (Export WAV float does not): off while the host is away
  const hostBlocked = useHostBlocked();
  const clips = useStudioStore((s) => s.clips);
  const savedVoices = useStudioStore((s) => s.savedVoices);
  const fallbackVoice = useStudioStore((s) => s.voiceSettings.voice);
  const editorText = useStudioStore((s) => s.editorText);
  const editorFormat = useStudioStore((s) => s.editorFormat);
  const waveHost = useRef<HTMLDivElement>(null);

  const composed = useMemo(() => (baseLayout ? composeTimeline(baseLayout, turns, clipAudio) : null), [baseLayout, turns, clipAudio]);
  const baseClip = baseLayout ? clips[baseLayout.clipId] : undefined;
  const regions = useMemo(() => {
    if (!composed || !baseLayout) return [];
    const voiceOf = (turnIndex: number) => {
      const turn = turns.find((t) => t.turnIndex === turnIndex);
      const spanVoice = baseLayout.turnSpans.find((sp) => sp.turnIndex === turnIndex) as { voice?: string } | undefined;
      const fallback = baseClip?.voice ?? fallbackVoice;
      return turn ? turnVoice(turn, spanVoice?.voice, fallback) : (spanVoice?.voice ?? fallback);
    };
    const displayName = (voice: string) => voiceDisplayName(voice, savedVoices);
    return speakerRegions(composed.regions, composed.sampleRateHz, voiceOf, displayName).map((r) => ({ ...r, editable: true, title: `${r.title}: drag the name to move the gap before it, an edge to trim` }));
  }, [composed, baseLayout, turns, baseClip, fallbackVoice, savedVoices]);
  const setTurnEdit = useStudioStore((s) => s.setTurnEdit);
  const chooseTake = useStudioStore((s) => s.chooseTake);
  const revertTake = useStudioStore((s) => s.revertTake);
  // A turn's own keys, from anywhere in its block but a field (turn-keys.ts).
  const onTurnKey = (e: KeyboardEvent<HTMLOListElement>) => {
    const target = e.target as HTMLElement;
    const block = target.closest<HTMLElement>('.turn-block');
    const action = turnKeyAction(e);
    if (!block || !action || target.closest('input, textarea, select, [contenteditable="true"]')) return;
    const turn = turns.find((t) => `turn-${t.turnIndex}` === block.getAttribute('data-testid'));
    if (!turn) return;
    e.preventDefault();
    if (action.kind === 'play') {
      const region = composed?.regions.find((r) => r.turnIndex === turn.turnIndex);
      if (region && composed) timelinePlayer.current?.playRange(region.startSample / composed.sampleRateHz, region.endSample / composed.sampleRateHz);
    } else if (action.kind === 'new-take') {
      // The block's own New take, with the seed choice made there.
      block.querySelector<HTMLButtonElement>(`[data-testid="regenerate-${turn.turnIndex}"]`)?.click();
    } else if (action.kind === 'revert') {
      if (turn.previousTakeId) void withChosenTakeSync(() => revertTake(turn.turnIndex));
    } else {
      const takeId = steppedTakeId(turn, action.step);
      if (takeId) void withChosenTakeSync(() => chooseTake(turn.turnIndex, takeId));
    }
  };
  const onRegionDrop = (id: string, toStartS: number, toEndS: number) => {
    const i = regions.findIndex((r) => r.id === id);
    if (i < 0 || !composed) return;
    const region = regions[i];
    const turnIndex = composed.regions.find((r) => `turn-${r.turnIndex}` === id)?.turnIndex;
    if (turnIndex === undefined) return;
    const gapBeforeS = region.startS - (i > 0 ? regions[i - 1].endS : 0);
    const patch = editForRegionDrop({ fromStartS: region.startS, fromEndS: region.endS, toStartS, toEndS, gapBeforeS }, turns.find((t) => t.turnIndex === turnIndex)?.edit);
    if (patch) setTurnEdit(turnIndex, patch);
  };
  const speakers = useMemo(() => [...new Map(regions.map((r) => [r.speaker, r])).values()], [regions]);
  const stale = staleAudioReason({ text: editorText, format: editorFormat }, baseClip);
  // A clip shown for the first time (generated or re-opened) that is wider than the view is fitted to it; never zoomed in.
  const fittedClipId = useRef<string | null>(null);
  useEffect(() => {
    if (!composed || !baseLayout || fittedClipId.current === baseLayout.clipId) return;
    fittedClipId.current = baseLayout.clipId;
    const widthPx = (waveHost.current?.clientWidth ?? 0) - 4;
    const durationS = composed.pcm.length / composed.sampleRateHz;
    if (widthPx > 0 && durationS * zoom > widthPx) setZoom(fitZoomPxPerS(widthPx, durationS, { min: MIN_ZOOM_PX_PER_S, max: MAX_ZOOM_PX_PER_S }));
  }, [composed, baseLayout, zoom, setZoom]);
  const markers = useMemo(() => marks.map((m) => ({ name: m.name, timeS: m.timeMs / 1000 })), [marks]);

  if (!baseLayout) {
    return (
      <section className="panel timeline-panel" aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">Timeline</h2>
        <p className="hint">Nothing generated yet. Write a document above and press Generate (Ctrl/Cmd+Enter).</p>
      </section>
    );
  }
  if (!composed) {
    return (
      <section className="panel timeline-panel" aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">Timeline</h2>
        <p className="hint">Loading the clips' audio…</p>
      </section>
    );
  }

  // Float WAV is written here, not in main: the same one-gain normalisation (the normaliser is pure) keeps it with the other formats.
  const exportWav = (pcm: Float32Array, name: string, format: WavSampleFormat) =>
    downloadBytes(
      encodeWav(normaliseExport ? normalizeLoudness(pcm, composed.sampleRateHz, outputLoudness).pcm : pcm, composed.sampleRateHz, format),
      `${name}-${format === 'pcm16' ? '16bit' : 'float'}.wav`,
      'audio/wav',
    );
  const baseName = projectName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'clip';
  const exportAs = (pcm: Float32Array, name: string) => {
    setExportStatus(`Exporting ${FORMAT_LABELS[exportFormat]}…`);
    exportAudioFile(pcm, composed.sampleRateHz, exportFormat, name, normaliseExport ? outputLoudness : undefined).then(
      (fileName) => setExportStatus(`Saved ${fileName}`),
      (err: unknown) => setExportStatus(`Export failed: ${toStudioError(err).message}`),
    );
  };

  return (
    <section className="panel timeline-panel" aria-labelledby="timeline-heading">
      <div className="panel-head">
        <h2 id="timeline-heading">Timeline</h2>
        <span className="muted" data-testid="timeline-duration">{formatS(composed.pcm.length, composed.sampleRateHz)} · {turns.length} turn{turns.length === 1 ? '' : 's'}</span>
      </div>
      {speakers.length > 0 && (
        <p className="speaker-legend muted" data-testid="speaker-legend" aria-label="Speakers">
          {speakers.map((r) => (
            <span key={r.speaker} className="inline" data-speaker={r.speaker} data-color={r.color}>
              <span className="swatch" style={{ background: r.color }} aria-hidden /> {r.label}
            </span>
          ))}
        </p>
      )}
      {stale && (
        <p className="hint warning" role="status" data-testid="timeline-stale">
          Out of date: {stale}
        </p>
      )}
      <div ref={waveHost} className={stale ? 'waveform-wrap stale' : 'waveform-wrap'} data-stale={stale ? 'true' : 'false'}>
      <Waveform
        ref={(h) => {
          timelinePlayer.current = h;
        }}
        pcm={composed.pcm}
        sampleRateHz={composed.sampleRateHz}
        regions={regions}
        markers={markers}
        zoomPxPerS={zoom}
        onPlayingChange={setPlaying}
        onTime={setTimeS}
        onSelection={setSelection}
        loop={loop}
        onRegionDrop={onRegionDrop}
      />
      </div>
      <div className="toolbar" role="toolbar" aria-label="Playback">
        <button data-testid="play" aria-keyshortcuts="Space" onClick={() => timelinePlayer.current?.playPause()}>{playing ? 'Pause' : 'Play'}</button>
        <button onClick={() => timelinePlayer.current?.seek(0)}>To start</button>
        <label>
          Seek{' '}
          <input type="range" aria-label="Seek" min={0} max={composed.pcm.length / composed.sampleRateHz} step={0.01} value={timeS} onChange={(e) => timelinePlayer.current?.seek(Number(e.target.value))} />
        </label>
        <span className="muted" data-testid="play-state">{playing ? 'playing' : 'paused'} at {timeS.toFixed(2)} s</span>
        <span className="inline" role="group" aria-label="Zoom">
          <button aria-label="Zoom out" disabled={zoom <= MIN_ZOOM_PX_PER_S} onClick={() => setZoom(zoom / 1.5)}>−</button>
          <span className="muted zoom-level" data-testid="zoom-level" aria-live="polite">{Math.round(zoom)} px/s</span>
          <button aria-label="Zoom in" disabled={zoom >= MAX_ZOOM_PX_PER_S} onClick={() => setZoom(zoom * 1.5)}>+</button>
          <button
            data-testid="zoom-fit"
            title="Fit the whole clip in the width"
            onClick={() => setZoom(fitZoomPxPerS((waveHost.current?.clientWidth ?? 0) - 4, composed.pcm.length / composed.sampleRateHz, { min: MIN_ZOOM_PX_PER_S, max: MAX_ZOOM_PX_PER_S }))}
          >
            Fit
          </button>
        </span>
        <span className="inline" role="group" aria-label="Edit history">
          <button data-testid="undo" disabled={!canUndo} onClick={() => void withChosenTakeSync(undo)} aria-keyshortcuts="Control+Z Meta+Z" title="Undo (Ctrl/Cmd+Z)">Undo</button>
          <button data-testid="redo" disabled={!canRedo} onClick={() => void withChosenTakeSync(redo)} aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z Control+Y" title="Redo (Ctrl/Cmd+Shift+Z)">Redo</button>
        </span>
        <label>
          Export format{' '}
          <select data-testid="export-format" value={exportFormat} onChange={(e) => setExportFormat(e.target.value as AudioFormat)}>
            {AUDIO_FORMATS.map((f) => (
              <option key={f} value={f}>{FORMAT_LABELS[f]}</option>
            ))}
          </select>
        </label>
        <label className="check" title="Takes and gain edits change the whole clip's loudness; this brings the export back to the Settings target in one gain">
          <input type="checkbox" data-testid="export-normalise" checked={normaliseExport} onChange={(e) => setNormaliseExport(e.target.checked)} /> Normalise to {outputLoudness.targetLufs} LUFS
        </label>
        <button data-testid="export-audio" disabled={hostBlocked !== null} {...hostBlockedProps(hostBlocked)} onClick={() => exportAs(composed.pcm, baseName)}>Export</button>
        <button data-testid="export-wavf32" onClick={() => exportWav(composed.pcm, baseName, 'float32')}>Export WAV float</button>
        {exportStatus && <span className="muted" role="status" data-testid="export-status">{exportStatus}</span>}
      </div>
      <div className="toolbar" role="toolbar" aria-label="Selection">
        {selection ? (
          <>
            <span data-testid="selection">Selection {selection.startS.toFixed(2)} – {selection.endS.toFixed(2)} s ({(selection.endS - selection.startS).toFixed(2)} s)</span>
            <button data-testid="play-selection" onClick={() => timelinePlayer.current?.playSelection()}>Play selection</button>
            <label className="check">
              <input type="checkbox" data-testid="loop" checked={loop} onChange={(e) => setLoop(e.target.checked)} /> Loop
            </label>
            <button onClick={() => timelinePlayer.current?.clearSelection()}>Clear selection</button>
          </>
        ) : (
          <span className="muted">Drag across the waveform to select a stretch to play or loop; click to seek (or focus it: arrows seek, Space plays).</span>
        )}
      </div>
      <p className="hint" data-testid="turn-keys-hint">{TURN_KEYS_HINT}</p>
      <ol className="turn-blocks" aria-label="Turns" aria-keyshortcuts="1 2 3 4 5 6 7 8 9 P N R [ ]" onKeyDown={onTurnKey}>
        {turns.map((turn) => {
          const region = composed.regions.find((r) => r.turnIndex === turn.turnIndex) ?? null;
          return (
            <TurnTakes
              key={turn.turnIndex}
              turn={turn}
              sampleRateHz={composed.sampleRateHz}
              region={region}
              onPlayRegion={() => region && timelinePlayer.current?.playRange(region.startSample / composed.sampleRateHz, region.endSample / composed.sampleRateHz)}
              exportLabel={FORMAT_LABELS[exportFormat]}
              onExport={(take, audio, kind) =>
                kind === 'float32' ? exportWav(takeSamples(take, audio), `${baseName}-turn${turn.turnIndex + 1}`, 'float32') : exportAs(takeSamples(take, audio), `${baseName}-turn${turn.turnIndex + 1}`)
              }
            />
          );
        })}
      </ol>
      {trace && <TraceTable trace={trace} />}
    </section>
  );
}
