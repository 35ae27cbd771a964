/**
 * One turn's block on the Timeline: where it sits, the voice and seed of the chosen take, the
 * take history (label, seed, voice, length, when made; choose, play alone), a new take with the
 * seed kept, new random or typed (only this turn is synthesised, streamed), A/B by take name
 * that says which take is sounding, revert, per-turn WAV export, and the turn's timeline edits
 * (trim, gap before it, gain), each an undo step.
 */
import { useState } from 'react';
import { TURN_EDIT_LIMITS, type ProjectTurn, type TakeRef } from '../../../src-shared/contract/projects';
import { useStudioStore } from '../../store/store';
import { withChosenTakeSync } from '../../shared-state/chosen-take-sync';
import { playPcm, stopPcm } from '../../components/pcm-player';
import { NumberField } from '../../components/NumberField';
import { voiceDisplayName } from '../../components/voice-names';
import { SEED_LIMIT } from '../../../src-shared/sampling-limits';
import { isEdited, NO_EDIT, takeSamples, type ClipAudio } from '../../components/compose-timeline';
import { generate, turnVoiceBlocker, type SeedChoice } from '../../shared-state/generate-actions';
import { hostBlockedProps, useHostBlocked } from '../../shared-state/useHostBlocked';
import { takeNameAt } from '../../components/take-name';

export function takeLabel(turn: ProjectTurn, take: TakeRef): string {
  return take.label ?? takeNameAt(turn.takes.indexOf(take));
}

function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export interface TurnTakesProps {
  turn: ProjectTurn;
  sampleRateHz: number;
  region: { startSample: number; endSample: number } | null;
  onPlayRegion(): void;
  /** The Timeline's chosen export format, for the per-turn Export button's name. */
  exportLabel: string;
  /** 'chosen': the Timeline's export format; 'float32': a float WAV. */
  onExport(take: TakeRef, audio: ClipAudio, kind: 'chosen' | 'float32'): void;
}

export function TurnTakes({ turn, sampleRateHz, region, onPlayRegion, exportLabel, onExport }: TurnTakesProps) {
  const clipAudio = useStudioStore((s) => s.clipAudio);
  const clips = useStudioStore((s) => s.clips);
  const chooseInTimeline = useStudioStore((s) => s.chooseTake);
  const revertInTimeline = useStudioStore((s) => s.revertTake);
  // The Library's entry shows the same choice (choose and revert alike).
  const chooseTake = (turnIndex: number, takeId: string) => void withChosenTakeSync(() => chooseInTimeline(turnIndex, takeId));
  const revertTake = (turnIndex: number) => void withChosenTakeSync(() => revertInTimeline(turnIndex));
  const compare = useStudioStore((s) => s.compare);
  const setCompare = useStudioStore((s) => s.setCompare);
  const busy = useStudioStore((s) => s.jobs.some((j) => j.kind === 'turn' && j.turnIndex === turn.turnIndex && (j.state === 'waiting' || j.state === 'running')));
  const hostBlocked = useHostBlocked();
  const voiceBlocked = useStudioStore(turnVoiceBlocker);
  const setTurnEdit = useStudioStore((s) => s.setTurnEdit);
  const edit = { ...NO_EDIT, ...turn.edit };
  const [seedKind, setSeedKind] = useState<SeedChoice['kind']>('random');
  const [typedSeed, setTypedSeed] = useState(1);

  const n = turn.turnIndex + 1;
  const chosen = turn.takes.find((t) => t.takeId === turn.chosenTakeId) ?? null;
  const chosenAudio = chosen ? clipAudio[chosen.clipId] : undefined;
  // Projects saved before takes recorded their voice: a take's own clip knows it; the base clip (take 1) may mix voices.
  const savedVoices = useStudioStore((s) => s.savedVoices);
  const recordedVoice = (take: TakeRef) => take.voice ?? (turn.takes.indexOf(take) === 0 ? null : (clips[take.clipId]?.voice ?? null));
  const voiceOf = (take: TakeRef) => {
    const voice = recordedVoice(take);
    return voice === null ? null : voiceDisplayName(voice, savedVoices);
  };
  const seconds = (take: TakeRef) => ((take.endSample - take.startSample) / sampleRateHz).toFixed(2);
  // Which take of this turn sounds now (and as which side of the compare), until its buffer ends or another plays.
  const [sounding, setSounding] = useState<{ takeId: string; side: 'A' | 'B' | null } | null>(null);
  const playTake = (take: TakeRef | undefined, side: 'A' | 'B' | null = null) => {
    const audio = take && clipAudio[take.clipId];
    if (!take || !audio) return;
    const playing = { takeId: take.takeId, side };
    const played = playPcm(takeSamples(take, audio), audio.sampleRateHz, { onEnded: () => setSounding((now) => (now === playing ? null : now)) });
    setSounding(played ? playing : null);
  };
  const comparing = compare?.turnIndex === turn.turnIndex ? compare : null;
  const takeA = comparing ? turn.takes.find((t) => t.takeId === comparing.takeIdA) : undefined;
  const takeB = comparing ? turn.takes.find((t) => t.takeId === comparing.takeIdB) : undefined;
  const seedChoice: SeedChoice = seedKind === 'typed' ? { kind: 'typed', seed: typedSeed } : { kind: seedKind };

  return (
    <li className="turn-block" data-testid={`turn-${turn.turnIndex}`}>
      <div className="turn-head">
        <strong>Turn {n}</strong>
        {region && (
          <span className="muted">
            {(region.startSample / sampleRateHz).toFixed(2)} s – {(region.endSample / sampleRateHz).toFixed(2)} s
          </span>
        )}
        {chosen && (
          <span className="muted" data-testid={`turn-${turn.turnIndex}-uses`}>
            uses {takeLabel(turn, chosen)} · seed {chosen.seed}
            {voiceOf(chosen) ? ` · ${voiceOf(chosen)}` : ''}
          </span>
        )}
        <button onClick={onPlayRegion}>Play in place</button>
        <button disabled={!turn.previousTakeId} onClick={() => revertTake(turn.turnIndex)}>
          Revert
        </button>
        {chosen && chosenAudio && (
          <>
            <button aria-label={`Export turn ${n} as ${exportLabel}`} disabled={hostBlocked !== null} {...hostBlockedProps(hostBlocked)} onClick={() => onExport(chosen, chosenAudio, 'chosen')}>
              Export
            </button>
            <button aria-label={`Export turn ${n} as WAV float`} onClick={() => onExport(chosen, chosenAudio, 'float32')}>
              WAV float
            </button>
          </>
        )}
      </div>
      <div className="toolbar turn-edit" role="group" aria-label={`Edit turn ${n} on the timeline`}>
        <label className="inline">
          Trim start
          <NumberField className="num" aria-label={`Turn ${n} trim start (ms)`} data-testid={`trim-start-${turn.turnIndex}`} range={TURN_EDIT_LIMITS.trimMs} step={10} value={edit.trimStartMs} onValue={(v) => setTurnEdit(turn.turnIndex, { trimStartMs: v ?? 0 })} />
          ms
        </label>
        <label className="inline">
          Trim end
          <NumberField className="num" aria-label={`Turn ${n} trim end (ms)`} data-testid={`trim-end-${turn.turnIndex}`} range={TURN_EDIT_LIMITS.trimMs} step={10} value={edit.trimEndMs} onValue={(v) => setTurnEdit(turn.turnIndex, { trimEndMs: v ?? 0 })} />
          ms
        </label>
        <label className="inline">
          Gap before
          <NumberField
            className="num"
            aria-label={`Turn ${n} gap before (ms, empty: as generated)`}
            data-testid={`gap-${turn.turnIndex}`}
            range={TURN_EDIT_LIMITS.gapBeforeMs}
            step={10}
            placeholder="auto"
            allowEmpty
            value={edit.gapBeforeMs}
            onValue={(v) => setTurnEdit(turn.turnIndex, { gapBeforeMs: v })}
          />
          ms
        </label>
        <label className="inline">
          Gain
          <NumberField className="num" aria-label={`Turn ${n} gain (dB)`} data-testid={`gain-${turn.turnIndex}`} range={TURN_EDIT_LIMITS.gainDb} step={0.5} value={edit.gainDb} onValue={(v) => setTurnEdit(turn.turnIndex, { gainDb: v ?? 0 })} />
          dB
        </label>
        <button disabled={!isEdited(turn.edit)} onClick={() => setTurnEdit(turn.turnIndex, { ...NO_EDIT })}>
          Reset edits
        </button>
      </div>
      <div className="toolbar new-take" role="group" aria-label={`New take of turn ${n}`}>
        <label className="inline">
          Seed
          <select aria-label={`Seed for the new take of turn ${n}`} data-testid={`take-seed-${turn.turnIndex}`} value={seedKind} onChange={(e) => setSeedKind(e.target.value as SeedChoice['kind'])}>
            <option value="random">new random</option>
            <option value="keep">same as {chosen ? `${takeLabel(turn, chosen)} (${chosen.seed})` : 'the chosen take'}</option>
            <option value="typed">typed…</option>
          </select>
        </label>
        {seedKind === 'typed' && (
          <NumberField aria-label={`Typed seed for turn ${n}`} data-testid={`take-typed-seed-${turn.turnIndex}`} range={SEED_LIMIT} value={typedSeed} onValue={(s) => s !== null && setTypedSeed(s)} />
        )}
        <button data-testid={`regenerate-${turn.turnIndex}`} disabled={busy || hostBlocked !== null || voiceBlocked !== null} title={voiceBlocked ?? undefined} onClick={() => void generate({ turnIndex: turn.turnIndex, seed: seedChoice })} {...hostBlockedProps(hostBlocked)}>
          {busy ? 'Making a take…' : 'New take'}
        </button>
      </div>
      <fieldset className="takes">
        <legend>Takes</legend>
        <ol className="take-list" aria-label={`Take history of turn ${n}`}>
          {turn.takes.map((take) => {
            const label = takeLabel(turn, take);
            const voice = voiceOf(take);
            return (
              <li key={take.takeId} className="take">
                <label className="inline">
                  <input type="radio" name={`take-${turn.turnIndex}`} checked={take.takeId === turn.chosenTakeId} onChange={() => chooseTake(turn.turnIndex, take.takeId)} aria-label={`Turn ${n} ${label}, seed ${take.seed}`} />
                  {label}
                </label>
                <span className="muted">
                  seed {take.seed}
                  {voice ? ` · ${voice}` : ''} · {seconds(take)} s · {clock(take.createdAtMs)}
                  {take.takeId === turn.previousTakeId ? ' · previous' : ''}
                </span>
                <button aria-label={`Play turn ${n} ${label} alone`} aria-pressed={sounding?.takeId === take.takeId} data-testid={`play-take-${turn.turnIndex}-${turn.takes.indexOf(take)}`} onClick={() => playTake(take)}>
                  Play
                </button>
                {sounding?.takeId === take.takeId && <span className="badge" data-testid={`take-sounding-${turn.turnIndex}`}>▶ sounding</span>}
              </li>
            );
          })}
        </ol>
        {turn.takes.length >= 2 && (
          <div className="ab toolbar">
            {comparing && takeA && takeB ? (
              <>
                <button aria-pressed={sounding?.side === 'A'} onClick={() => playTake(takeA, 'A')}>Play A — {takeLabel(turn, takeA)}</button>
                <button aria-pressed={sounding?.side === 'B'} onClick={() => playTake(takeB, 'B')}>Play B — {takeLabel(turn, takeB)}</button>
                <span role="status" aria-live="polite" data-testid={`ab-sounding-${turn.turnIndex}`}>
                  {sounding?.side === 'A' ? `Sounding: A — ${takeLabel(turn, takeA)}` : sounding?.side === 'B' ? `Sounding: B — ${takeLabel(turn, takeB)}` : 'Nothing sounding'}
                </span>
                <button onClick={() => chooseTake(turn.turnIndex, takeA.takeId)}>Keep A — {takeLabel(turn, takeA)}</button>
                <button onClick={() => chooseTake(turn.turnIndex, takeB.takeId)}>Keep B — {takeLabel(turn, takeB)}</button>
                <button onClick={() => (stopPcm(), setSounding(null), setCompare(null))}>End compare</button>
              </>
            ) : (
              <button
                onClick={() => {
                  const a = turn.previousTakeId ?? turn.takes[0].takeId;
                  const b = turn.chosenTakeId === a ? turn.takes[turn.takes.length - 1].takeId : turn.chosenTakeId;
                  setCompare({ turnIndex: turn.turnIndex, takeIdA: a, takeIdB: b });
                }}
              >
                Compare A/B
              </button>
            )}
          </div>
        )}
      </fieldset>
    </li>
  );
}
