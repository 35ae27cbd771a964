/**
 * Settings: appearance (system / light / dark, kept across reloads), output (the loudness target and
 * true-peak ceiling every clip and export is normalised to, settable; where clips and projects are written), and what the studio runs on (host,
 * version, data folder, engine provider and why it was chosen, engine version, loaded model).
 */
import { useState } from 'react';
import { useStudioStore } from '../../store/store';
import { DEFAULT_OUTPUT_LOUDNESS, OUTPUT_LOUDNESS_LIMITS } from '../../../src-shared/audio-format';
import { THEMES, applyTheme, readTheme, type Theme } from './theme';
import { loadedModelName } from '../../components/model-name';
import { modelTypeLabel } from '../../../src-shared/model-labels';
import { NumberField } from '../../components/NumberField';
import { PROVIDER_CHOICES } from '../../../src-shared/provider-names';

/** The loudness target and ceiling inputs: applied on Apply, checked against the contract's ranges. */
function LoudnessSetting() {
  const current = useStudioStore((s) => s.outputLoudness);
  const setOutputLoudness = useStudioStore((s) => s.setOutputLoudness);
  // held as typed (empty allowed) and checked on Apply, so an out-of-range value gets the contract's message
  const [lufs, setLufs] = useState<number | null>(current.targetLufs);
  const [ceiling, setCeiling] = useState<number | null>(current.truePeakCeilingDbtp);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const apply = (targetLufs: number, truePeakCeilingDbtp: number) => {
    const problem = setOutputLoudness({ targetLufs, truePeakCeilingDbtp });
    setMessage(problem ? { error: true, text: problem } : { error: false, text: `Saved: new clips and exports are normalised to ${targetLufs} LUFS, true peak at most ${truePeakCeilingDbtp} dBTP.` });
  };
  const { targetLufs: t, truePeakCeilingDbtp: c } = OUTPUT_LOUDNESS_LIMITS;
  return (
    <form
      className="row"
      noValidate
      data-testid="loudness-setting"
      onSubmit={(e) => {
        e.preventDefault();
        apply(lufs ?? NaN, ceiling ?? NaN);
      }}
    >
      <label>
        Loudness target (LUFS){' '}
        <NumberField step={0.5} allowEmpty title={`${t.min} to ${t.max} LUFS`} value={lufs} onValue={setLufs} data-testid="loudness-target" style={{ width: '6em' }} />
      </label>
      <label>
        True-peak ceiling (dBTP){' '}
        <NumberField step={0.1} allowEmpty title={`${c.min} to ${c.max} dBTP`} value={ceiling} onValue={setCeiling} data-testid="loudness-ceiling" style={{ width: '6em' }} />
      </label>
      <button type="submit" data-testid="loudness-apply">Apply</button>
      <button
        type="button"
        onClick={() => {
          setLufs(DEFAULT_OUTPUT_LOUDNESS.targetLufs);
          setCeiling(DEFAULT_OUTPUT_LOUDNESS.truePeakCeilingDbtp);
          apply(DEFAULT_OUTPUT_LOUDNESS.targetLufs, DEFAULT_OUTPUT_LOUDNESS.truePeakCeilingDbtp);
        }}
      >
        Reset to {DEFAULT_OUTPUT_LOUDNESS.targetLufs} / {DEFAULT_OUTPUT_LOUDNESS.truePeakCeilingDbtp}
      </button>
      {message && (
        <span role={message.error ? 'alert' : 'status'} className={message.error ? 'error' : 'muted'} data-testid="loudness-message">
          {message.text}
        </span>
      )}
    </form>
  );
}

const THEME_LABELS: Record<Theme, string> = { system: 'Follow the system', light: 'Light', dark: 'Dark' };

function joinPath(dir: string, ...parts: string[]): string {
  const sep = dir.includes('\\') && !dir.includes('/') ? '\\' : '/';
  return [dir.replace(/[\\/]+$/, ''), ...parts].join(sep);
}

export function SettingsPanel() {
  const info = useStudioStore((s) => s.appInfo);
  const status = useStudioStore((s) => s.engineStatus);
  const models = useStudioStore((s) => s.models);
  const [theme, setTheme] = useState<Theme>(() => readTheme(window.localStorage));
  const choose = (t: Theme) => {
    setTheme(t);
    applyTheme(t, window.localStorage);
  };
  const { targetLufs, truePeakCeilingDbtp } = useStudioStore((s) => s.outputLoudness);
  return (
    <section>
      <h2>Settings</h2>
      <div className="panel">
        <h3>Appearance</h3>
        <fieldset className="row" data-testid="theme-choice">
          <legend>Theme</legend>
          {THEMES.map((t) => (
            <label key={t}>
              <input type="radio" name="theme" value={t} checked={theme === t} onChange={() => choose(t)} data-testid={`theme-${t}`} /> {THEME_LABELS[t]}
            </label>
          ))}
        </fieldset>
      </div>
      <div className="panel">
        <h3>Output</h3>
        <LoudnessSetting />
        <dl className="facts">
          <dt>Loudness</dt>
          <dd data-testid="output-loudness">
            every clip (Speak, Timeline takes, previews, the Timeline's export) normalised to {targetLufs} LUFS integrated, true peak at most {truePeakCeilingDbtp} dBTP (one gain, no limiter). Live playback while a clip streams plays at the gain predicted from the audio so far (glided, capped under the ceiling), and switches to the final normalised clip when it arrives in time.
          </dd>
          <dt>Clips</dt>
          <dd className="mono">{info ? joinPath(info.userDataDir, 'library', 'clips') : '…'}</dd>
          <dt>Projects</dt>
          <dd className="mono">{info ? joinPath(info.userDataDir, 'projects') : '…'}</dd>
          <dt>Exports</dt>
          <dd>{info?.hostKind === 'electron' ? 'where you choose in the save dialog' : "the browser's downloads folder"}</dd>
        </dl>
      </div>
      <div className="panel">
        <h3>Engine</h3>
        <dl className="facts">
          <dt>Host</dt>
          <dd data-testid="host-kind">{info?.hostKind ?? '…'}</dd>
          <dt>Version</dt>
          <dd>{info?.version ?? '…'}</dd>
          <dt>Data folder</dt>
          <dd className="mono">{info?.userDataDir ?? '…'}</dd>
          <dt>Execution provider</dt>
          <dd data-testid="engine-provider">{status ? `${status.provider} (${status.providerReason})` : '…'}</dd>
          <dt>Engine build</dt>
          <dd>{status?.engineVersion || '…'}</dd>
          <dt>Model</dt>
          <dd>{status?.model ? `${loadedModelName(status.model, models)} · ${modelTypeLabel(status.model.kind, status.model.size)}${status.model.synthetic ? ' — synthetic, random weights' : ''}` : 'none loaded'}</dd>
          <dt>Queue</dt>
          <dd>{status ? `${status.numRunning} running, ${status.numWaiting} waiting, ${status.numCompleted} done, ${status.numFailed} failed since start` : '…'}</dd>
        </dl>
        <p className="hint">Provider and engine settings are chosen when the host starts: <code>studio serve --provider {PROVIDER_CHOICES.join('|')} --engine-config '{'{…}'}'</code>.</p>
      </div>
    </section>
  );
}
