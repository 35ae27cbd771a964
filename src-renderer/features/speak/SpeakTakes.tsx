/**
 * Speak's take history, under the text: every generation, newest first, with its waveform, voice,
 * seed and settings; per take play/stop, keep (never dropped from the history), use (its text and
 * settings back into the form), WAV download, pick as A or B, remove. The A/B compare sits above
 * the list: both waveforms, Play A / Play B (B takes over from where A was, and back), and a line
 * that says which take is sounding and where.
 */
import { useEffect, useRef, useState } from 'react';
import { useStudioStore } from '../../store/store';
import { TakeWaveform } from '../../components/TakeWaveform';
import { takeName } from '../../components/take-name';
import { voiceDisplayName } from '../../components/voice-names';
import { defaultCompare, MAX_SPEAK_TAKES, type SpeakTake } from './speak-takes';
import { downloadSpeakTake, loadSpeakTakeAudio, playCompareSide, playSpeakTake, reuseSpeakTake, soundingPositionS, stopSpeakTake } from './speak-takes-actions';
import './speak-takes.css';

/** Seconds into the sounding take, redrawn each frame while `active`; null otherwise. */
function useSoundingPosition(active: boolean): number | null {
  const [positionS, setPositionS] = useState<number | null>(null);
  useEffect(() => {
    if (!active) {
      setPositionS(null);
      return;
    }
    let frame = 0;
    const tick = () => {
      setPositionS(soundingPositionS() ?? 0);
      frame = requestAnimationFrame(tick);
    };
    tick();
    return () => cancelAnimationFrame(frame);
  }, [active]);
  return positionS;
}

function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** The take's waveform once its audio is here; loads it from the Library when the row first shows. */
function TakeAudio({ take, positionS, onSeek }: { take: SpeakTake; positionS: number | null; onSeek(timeS: number): void }) {
  const audio = useStudioStore((s) => s.speakTakeAudio[take.takeId]);
  const [failed, setFailed] = useState(false);
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (audio !== undefined) return;
    const load = () => void loadSpeakTakeAudio(take.takeId).catch(() => setFailed(true));
    const el = host.current;
    // A long history after a reload reads each take's audio only when its row comes into view.
    if (!el || typeof IntersectionObserver === 'undefined') return load();
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        seen.disconnect();
        load();
      }
    });
    seen.observe(el);
    return () => seen.disconnect();
  }, [audio, take.takeId]);
  const name = takeName(take.takeNumber);
  return (
    <div ref={host}>
      {audio ? (
        <TakeWaveform pcm={audio.pcm} sampleRateHz={audio.sampleRateHz} positionS={positionS} label={name} onSeek={onSeek} />
      ) : (
        <p className="muted" data-testid="take-audio-missing">
          {audio === null ? 'No longer in the Library: its audio is gone.' : failed ? 'Could not read its audio from the Library.' : 'Loading the waveform…'}
        </p>
      )}
    </div>
  );
}

function TakeRow({ take }: { take: SpeakTake }) {
  const sounding = useStudioStore((s) => (s.speakSounding?.takeId === take.takeId ? s.speakSounding : null));
  const compare = useStudioStore((s) => s.speakCompare);
  const savedVoices = useStudioStore((s) => s.savedVoices);
  const setKept = useStudioStore((s) => s.setSpeakTakeKept);
  const remove = useStudioStore((s) => s.removeSpeakTake);
  const setCompare = useStudioStore((s) => s.setSpeakCompare);
  const positionS = useSoundingPosition(sounding !== null);
  const name = takeName(take.takeNumber);
  const side = compare?.takeIdA === take.takeId ? 'A' : compare?.takeIdB === take.takeId ? 'B' : null;
  const u = take.used;
  const voice = voiceDisplayName(u.voice, savedVoices);
  // Picking this take as one side keeps the other side, or pairs it with the newest other take.
  const other = (keep: string | undefined) => (keep && keep !== take.takeId ? keep : (useStudioStore.getState().speakTakes.find((t) => t.takeId !== take.takeId)?.takeId ?? take.takeId));
  return (
    <li
      className={`speak-take${sounding ? ' is-sounding' : ''}${take.kept ? ' is-kept' : ''}`}
      data-testid="speak-take"
      data-take-number={take.takeNumber}
      data-sounding={sounding ? 'true' : 'false'}
      aria-label={`${name}${take.kept ? ', kept' : ''}${sounding ? ', sounding' : ''}`}
    >
      <div className="speak-take-head">
        <strong data-testid="speak-take-name">{name}</strong>
        {side && <span className="side-badge" title={`${side} of the compare`}>{side}</span>}
        {sounding && (
          <span className="sounding-badge" data-testid="speak-take-sounding">
            ▶ sounding{positionS !== null ? ` · ${positionS.toFixed(1)} s` : ''}
          </span>
        )}
        <span className="muted" data-testid="speak-take-used">
          {voice} · {u.language} · seed {u.seed} · {u.doSample ? `T ${u.temperature}, top-k ${u.topK}, top-p ${u.topP}` : 'greedy'} · {(take.durationMs / 1000).toFixed(2)} s · {clock(take.createdAtMs)}
        </span>
      </div>
      <p className="speak-take-text muted" title={take.input}>
        {take.inputFormat === 'ssml' ? 'SSML · ' : ''}
        {take.input}
      </p>
      <TakeAudio take={take} positionS={sounding ? positionS : null} onSeek={(timeS) => void playSpeakTake(take.takeId, { offsetS: timeS, side })} />
      <div className="toolbar">
        <button aria-pressed={sounding !== null} aria-label={sounding ? `Stop ${name}` : `Play ${name}`} data-testid="speak-take-play" onClick={() => (sounding ? stopSpeakTake() : void playSpeakTake(take.takeId, { side }))}>
          {sounding ? 'Stop' : 'Play'}
        </button>
        <button aria-pressed={take.kept} aria-label={take.kept ? `Unkeep ${name}` : `Keep ${name}`} data-testid="speak-take-keep" title="A kept take is never dropped from the history" onClick={() => setKept(take.takeId, !take.kept)}>
          {take.kept ? '★ Kept' : '☆ Keep'}
        </button>
        <button aria-label={`Use ${name}'s text and settings`} data-testid="speak-take-use" title="Put its text, voice, seed and sampling back into the form" onClick={() => reuseSpeakTake(take.takeId)}>
          Use
        </button>
        <button aria-label={`Download ${name} as WAV`} data-testid="speak-take-download" onClick={() => void downloadSpeakTake(take.takeId)}>
          WAV
        </button>
        <button aria-label={`Compare ${name} as A`} aria-pressed={side === 'A'} data-testid="speak-take-as-a" onClick={() => setCompare({ takeIdA: take.takeId, takeIdB: other(compare?.takeIdB) })}>
          as A
        </button>
        <button aria-label={`Compare ${name} as B`} aria-pressed={side === 'B'} data-testid="speak-take-as-b" onClick={() => setCompare({ takeIdA: other(compare?.takeIdA), takeIdB: take.takeId })}>
          as B
        </button>
        <button aria-label={`Remove ${name} from the history`} data-testid="speak-take-remove" disabled={take.kept} title={take.kept ? 'Unkeep it first' : 'Its clip stays in the Library'} onClick={() => remove(take.takeId)}>
          Remove
        </button>
      </div>
    </li>
  );
}

function CompareSide({ side, take }: { side: 'A' | 'B'; take: SpeakTake }) {
  const sounding = useStudioStore((s) => s.speakSounding?.takeId === take.takeId);
  const audio = useStudioStore((s) => s.speakTakeAudio[take.takeId]);
  const positionS = useSoundingPosition(sounding);
  const name = takeName(take.takeNumber);
  return (
    <div className={`speak-compare-side${sounding ? ' is-sounding' : ''}`} data-testid={`speak-compare-${side.toLowerCase()}`} data-sounding={sounding ? 'true' : 'false'}>
      <button aria-pressed={sounding} data-testid={`speak-play-${side.toLowerCase()}`} onClick={() => void playCompareSide(side)}>
        Play {side} — {name}
      </button>
      {audio ? <TakeWaveform pcm={audio.pcm} sampleRateHz={audio.sampleRateHz} positionS={sounding ? positionS : null} label={`${side}, ${name}`} onSeek={(timeS) => void playSpeakTake(take.takeId, { side, offsetS: timeS })} /> : <span className="muted">seed {take.used.seed}</span>}
    </div>
  );
}

function CompareBar({ takes }: { takes: SpeakTake[] }) {
  const compare = useStudioStore((s) => s.speakCompare);
  const sounding = useStudioStore((s) => s.speakSounding);
  const setCompare = useStudioStore((s) => s.setSpeakCompare);
  const setKept = useStudioStore((s) => s.setSpeakTakeKept);
  const positionS = useSoundingPosition(sounding !== null);
  const a = compare ? takes.find((t) => t.takeId === compare.takeIdA) : undefined;
  const b = compare ? takes.find((t) => t.takeId === compare.takeIdB) : undefined;
  if (!compare || !a || !b) {
    return (
      <div className="toolbar">
        <button data-testid="speak-compare-start" onClick={() => setCompare(defaultCompare(takes))}>
          Compare A/B
        </button>
        <span className="muted">the newest take against the one before; pick others with “as A” / “as B”</span>
      </div>
    );
  }
  const soundingTake = sounding ? takes.find((t) => t.takeId === sounding.takeId) : undefined;
  const soundingSide = sounding?.takeId === a.takeId ? 'A' : sounding?.takeId === b.takeId ? 'B' : null;
  return (
    <div className="speak-compare" role="group" aria-label="A/B compare">
      <CompareSide side="A" take={a} />
      <CompareSide side="B" take={b} />
      <div className="toolbar">
        <span role="status" aria-live="polite" data-testid="speak-ab-sounding">
          {soundingTake ? `Sounding: ${soundingSide ? `${soundingSide} — ` : ''}${takeName(soundingTake.takeNumber)}` : 'Nothing sounding'}
        </span>
        {soundingTake && positionS !== null && <span className="muted">at {positionS.toFixed(2)} s</span>}
        <button onClick={stopSpeakTake} disabled={!sounding}>
          Stop
        </button>
        <button data-testid="speak-keep-a" aria-pressed={a.kept} onClick={() => setKept(a.takeId, true)} disabled={a.kept}>
          Keep A
        </button>
        <button data-testid="speak-keep-b" aria-pressed={b.kept} onClick={() => setKept(b.takeId, true)} disabled={b.kept}>
          Keep B
        </button>
        <button onClick={() => setCompare({ takeIdA: b.takeId, takeIdB: a.takeId })}>Swap</button>
        <button
          onClick={() => {
            if (soundingSide) stopSpeakTake();
            setCompare(null);
          }}
        >
          End compare
        </button>
      </div>
    </div>
  );
}

export function SpeakTakes() {
  const takes = useStudioStore((s) => s.speakTakes);
  if (takes.length === 0) return null;
  const numKept = takes.filter((t) => t.kept).length;
  return (
    <section className="speak-takes" aria-labelledby="speak-takes-heading">
      <div className="speak-takes-head">
        <h3 id="speak-takes-heading">Takes</h3>
        <span className="muted" data-testid="speak-takes-count">
          {takes.length} take{takes.length === 1 ? '' : 's'}
          {numKept > 0 ? ` · ${numKept} kept` : ''} · the last {MAX_SPEAK_TAKES} stay, kept ones always
        </span>
      </div>
      {takes.length >= 2 && <CompareBar takes={takes} />}
      <ol className="take-history" data-testid="speak-takes" aria-label="Take history, newest first">
        {takes.map((take) => (
          <TakeRow key={take.takeId} take={take} />
        ))}
      </ol>
    </section>
  );
}
