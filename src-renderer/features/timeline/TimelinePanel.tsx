/**
 * The Timeline: the whole clip composed from each turn's chosen take on one waveform (a region
 * per turn, markers for marks), transport and zoom, one block per turn with its takes (choose,
 * A/B compare, revert, regenerate with a new seed), exports (any AudioFormat through main's encoders,
 * or float WAV here), and the processing trace.
 */
import { useMemo, useState } from 'react';
import { useStudioStore } from '../../store/store';
import { Waveform } from '../../components/Waveform';
import { downloadBytes, encodeWav, type WavSampleFormat } from '../../components/wav-encode';
import { playPcm, stopPcm } from '../../components/pcm-player';
import { composeTimeline, takeSamples } from './compose-timeline';
import { generate } from './generate-actions';
import { timelinePlayer } from './timeline-player';
import { TraceTable } from './TraceTable';
import { exportAudioFile } from './export-actions';
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
  const chooseTake = useStudioStore((s) => s.chooseTake);
  const revertTake = useStudioStore((s) => s.revertTake);
  const compare = useStudioStore((s) => s.compare);
  const setCompare = useStudioStore((s) => s.setCompare);
  const projectName = useStudioStore((s) => s.projectName);
  const [playing, setPlaying] = useState(false);
  const [timeS, setTimeS] = useState(0);
  const [exportFormat, setExportFormat] = useState<AudioFormat>('wav');
  const [exportStatus, setExportStatus] = useState<string | null>(null);

  const composed = useMemo(() => (baseLayout ? composeTimeline(baseLayout, turns, clipAudio) : null), [baseLayout, turns, clipAudio]);
  const regions = useMemo(
    () => (composed ? composed.regions.map((r) => ({ id: `turn-${r.turnIndex}`, startS: r.startSample / composed.sampleRateHz, endS: r.endSample / composed.sampleRateHz, label: `Turn ${r.turnIndex + 1}` })) : []),
    [composed],
  );
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

  const exportWav = (pcm: Float32Array, name: string, format: WavSampleFormat) =>
    downloadBytes(encodeWav(pcm, composed.sampleRateHz, format), `${name}-${format === 'pcm16' ? '16bit' : 'float'}.wav`, 'audio/wav');
  const baseName = projectName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'clip';
  const exportAs = (pcm: Float32Array, name: string) => {
    setExportStatus(`Exporting ${FORMAT_LABELS[exportFormat]}…`);
    exportAudioFile(pcm, composed.sampleRateHz, exportFormat, name).then(
      (fileName) => setExportStatus(`Saved ${fileName}`),
      (err: unknown) => setExportStatus(`Export failed: ${toStudioError(err).message}`),
    );
  };

  return (
    <section className="panel timeline-panel" aria-labelledby="timeline-heading">
      <div className="panel-head">
        <h2 id="timeline-heading">Timeline</h2>
        <span className="muted" data-testid="timeline-duration">{formatS(composed.pcm.length, composed.sampleRateHz)} · {turns.length} turns</span>
      </div>
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
      />
      <div className="toolbar" role="toolbar" aria-label="Playback">
        <button data-testid="play" aria-keyshortcuts="Space" onClick={() => timelinePlayer.current?.playPause()}>{playing ? 'Pause' : 'Play'}</button>
        <button onClick={() => timelinePlayer.current?.seek(0)}>To start</button>
        <label>
          Seek{' '}
          <input type="range" aria-label="Seek" min={0} max={composed.pcm.length / composed.sampleRateHz} step={0.01} value={timeS} onChange={(e) => timelinePlayer.current?.seek(Number(e.target.value))} />
        </label>
        <span className="muted" data-testid="play-state">{playing ? 'playing' : 'paused'} at {timeS.toFixed(2)} s</span>
        <button aria-label="Zoom out" onClick={() => setZoom(zoom / 1.5)}>−</button>
        <button aria-label="Zoom in" onClick={() => setZoom(zoom * 1.5)}>+</button>
        <label>
          Export format{' '}
          <select data-testid="export-format" value={exportFormat} onChange={(e) => setExportFormat(e.target.value as AudioFormat)}>
            {AUDIO_FORMATS.map((f) => (
              <option key={f} value={f}>{FORMAT_LABELS[f]}</option>
            ))}
          </select>
        </label>
        <button data-testid="export-audio" onClick={() => exportAs(composed.pcm, baseName)}>Export</button>
        <button data-testid="export-wavf32" onClick={() => exportWav(composed.pcm, baseName, 'float32')}>Export WAV float</button>
        {exportStatus && <span className="muted" role="status" data-testid="export-status">{exportStatus}</span>}
      </div>
      <ol className="turn-blocks" aria-label="Turns">
        {turns.map((turn) => {
          const chosen = turn.takes.find((t) => t.takeId === turn.chosenTakeId);
          const chosenAudio = chosen && clipAudio[chosen.clipId];
          const region = composed.regions.find((r) => r.turnIndex === turn.turnIndex);
          const comparing = compare?.turnIndex === turn.turnIndex ? compare : null;
          const playTake = (takeId: string) => {
            const take = turn.takes.find((t) => t.takeId === takeId);
            const audio = take && clipAudio[take.clipId];
            if (take && audio) playPcm(takeSamples(take, audio), audio.sampleRateHz);
          };
          return (
            <li key={turn.turnIndex} className="turn-block" data-testid={`turn-${turn.turnIndex}`}>
              <div className="turn-head">
                <strong>Turn {turn.turnIndex + 1}</strong>
                {region && <span className="muted"> {formatS(region.startSample, composed.sampleRateHz)} – {formatS(region.endSample, composed.sampleRateHz)}</span>}
                <button onClick={() => region && timelinePlayer.current?.playRange(region.startSample / composed.sampleRateHz, region.endSample / composed.sampleRateHz)}>Play turn</button>
                <button data-testid={`regenerate-${turn.turnIndex}`} onClick={() => void generate({ turnIndex: turn.turnIndex })}>Regenerate (new seed)</button>
                <button disabled={!turn.previousTakeId} onClick={() => revertTake(turn.turnIndex)}>Revert</button>
                {chosenAudio && chosen && (
                  <>
                    <button aria-label={`Export turn ${turn.turnIndex + 1} as ${FORMAT_LABELS[exportFormat]}`} onClick={() => exportAs(takeSamples(chosen, chosenAudio), `${baseName}-turn${turn.turnIndex + 1}`)}>Export</button>
                    <button aria-label={`Export turn ${turn.turnIndex + 1} as WAV float`} onClick={() => exportWav(takeSamples(chosen, chosenAudio), `${baseName}-turn${turn.turnIndex + 1}`, 'float32')}>WAV float</button>
                  </>
                )}
              </div>
              <fieldset className="takes">
                <legend>Takes</legend>
                {turn.takes.map((take, i) => (
                  <label key={take.takeId} className="take">
                    <input type="radio" name={`take-${turn.turnIndex}`} checked={take.takeId === turn.chosenTakeId} onChange={() => chooseTake(turn.turnIndex, take.takeId)} aria-label={`Turn ${turn.turnIndex + 1} take ${i + 1}, seed ${take.seed}`} />
                    Take {i + 1} <span className="muted">seed {take.seed} · {formatS(take.endSample - take.startSample, composed.sampleRateHz)}</span>
                  </label>
                ))}
                {turn.takes.length >= 2 && (
                  <div className="ab">
                    {comparing ? (
                      <>
                        <button onClick={() => playTake(comparing.takeIdA)}>Play A</button>
                        <button onClick={() => playTake(comparing.takeIdB)}>Play B</button>
                        <button onClick={() => chooseTake(turn.turnIndex, comparing.takeIdA)}>Keep A</button>
                        <button onClick={() => chooseTake(turn.turnIndex, comparing.takeIdB)}>Keep B</button>
                        <button onClick={() => (stopPcm(), setCompare(null))}>End compare</button>
                      </>
                    ) : (
                      <button
                        onClick={() =>
                          setCompare({ turnIndex: turn.turnIndex, takeIdA: turn.previousTakeId ?? turn.takes[0].takeId, takeIdB: turn.chosenTakeId === (turn.previousTakeId ?? turn.takes[0].takeId) ? turn.takes[turn.takes.length - 1].takeId : turn.chosenTakeId })
                        }
                      >
                        Compare A/B
                      </button>
                    )}
                  </div>
                )}
              </fieldset>
            </li>
          );
        })}
      </ol>
      {trace && <TraceTable trace={trace} />}
    </section>
  );
}
