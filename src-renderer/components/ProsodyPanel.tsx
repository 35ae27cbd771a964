/**
 * The editor's visual tuning panel: rate, pitch and volume sliders over the shared ranges, emphasis
 * levels, a pause length and Clear, each applied to the editor's selection through ssml-tuning.ts,
 * with the outcome (or why not) said beside the controls. Store-agnostic: the editor hands it the
 * function that applies an edit to its document.
 */
import { useState } from 'react';
import { NumberField } from './NumberField';
import { EMPHASIS_CHOICES, NO_TUNING, TUNING_RANGES, addEmphasis, clearTuning, insertBreak, tuneProsody, type EmphasisLevel, type Edit, type ProsodyTuning } from './ssml-tuning';

/** Makes an edit of the document from the selection [from, to), or a sentence saying why not. */
export type EditMaker = (doc: string, from: number, to: number) => Edit | string;

export interface ProsodyPanelProps {
  /** null when the document is SSML; otherwise why tuning is off. */
  blocked: string | null;
  /** Applies the edit `make` gives to the editor's document, and returns what to tell the user. */
  apply(make: EditMaker, done: string): string;
}

/** A labelled slider with its value, for one tuning control. */
function TuneSlider(props: { label: string; unit: string; testId: string; value: number; range: { min: number; max: number; step: number }; disabled: boolean; onChange(v: number): void }) {
  const { min, max, step } = props.range;
  return (
    <label className="tune-slider">
      {props.label}{' '}
      <input type="range" min={min} max={max} step={step} value={props.value} disabled={props.disabled} onChange={(e) => props.onChange(Number(e.target.value))} data-testid={props.testId} aria-valuetext={`${props.value} ${props.unit}`} />
      <output className="mono">{`${props.value > 0 ? '+' : ''}${props.value} ${props.unit}`}</output>
    </label>
  );
}

export function ProsodyPanel({ blocked, apply }: ProsodyPanelProps) {
  const [tuning, setTuning] = useState<ProsodyTuning>(NO_TUNING);
  const [emphasis, setEmphasis] = useState<EmphasisLevel>('strong');
  const [breakMs, setBreakMs] = useState(500);
  const [message, setMessage] = useState<string | null>(null);
  const off = blocked !== null;
  const run = (make: EditMaker, done: string) => setMessage(apply(make, done));
  return (
    <div className="toolbar tune-bar" role="toolbar" aria-label="Tune the selection" data-testid="tune-bar">
      <strong className="muted">Tune selection</strong>
      <TuneSlider label="Rate" unit="%" testId="tune-rate" value={tuning.ratePercent} range={TUNING_RANGES.ratePercent} disabled={off} onChange={(ratePercent) => setTuning({ ...tuning, ratePercent })} />
      <TuneSlider label="Pitch" unit="st" testId="tune-pitch" value={tuning.pitchSemitones} range={TUNING_RANGES.pitchSemitones} disabled={off} onChange={(pitchSemitones) => setTuning({ ...tuning, pitchSemitones })} />
      <TuneSlider label="Volume" unit="dB" testId="tune-volume" value={tuning.volumeDb} range={TUNING_RANGES.volumeDb} disabled={off} onChange={(volumeDb) => setTuning({ ...tuning, volumeDb })} />
      <button disabled={off} data-testid="tune-apply" onClick={() => run((d, f, t) => tuneProsody(d, f, t, tuning), 'Prosody added around the selection.')}>
        Apply to selection
      </button>
      <button disabled={off} onClick={() => setTuning(NO_TUNING)}>
        Reset
      </button>
      <span className="inline">
        <select aria-label="Emphasis level" value={emphasis} disabled={off} onChange={(e) => setEmphasis(e.target.value as EmphasisLevel)} data-testid="tune-emphasis">
          {EMPHASIS_CHOICES.map((l) => (
            <option key={l} value={l}>{l}</option>
          ))}
        </select>
        <button disabled={off} data-testid="tune-emphasis-apply" onClick={() => run((d, f, t) => addEmphasis(d, f, t, emphasis), `Emphasis (${emphasis}) added.`)}>
          Emphasise
        </button>
      </span>
      <span className="inline">
        <NumberField aria-label="Pause length in ms" range={TUNING_RANGES.breakMs} step={TUNING_RANGES.breakMs.step} value={breakMs} disabled={off} onValue={(ms) => ms !== null && setBreakMs(ms)} data-testid="tune-break-ms" style={{ width: '5.5em' }} />
        <button disabled={off} data-testid="tune-break-insert" onClick={() => run((d, _f, t) => insertBreak(d, t, breakMs), `Pause of ${breakMs} ms inserted.`)}>
          Insert pause
        </button>
      </span>
      <button disabled={off} data-testid="tune-clear" title="Take the tuning around the caret (or the pauses in the selection) off" onClick={() => run(clearTuning, 'Tuning cleared.')}>
        Clear
      </button>
      {off && <span className="muted">{blocked}</span>}
      {message && !off && (
        <span className="muted" role="status" data-testid="tune-message">
          {message}
        </span>
      )}
    </div>
  );
}
