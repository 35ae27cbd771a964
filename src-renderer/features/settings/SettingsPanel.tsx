/**
 * Settings: appearance (system / light / dark, kept across reloads), output (the loudness every
 * clip is normalised to, where clips and projects are written), and what the studio runs on (host,
 * version, data folder, engine provider and why it was chosen, engine version, loaded model).
 */
import { useState } from 'react';
import { useStudioStore } from '../../store/store';
import { DEFAULT_OUTPUT_LOUDNESS } from '../../../src-shared/audio-format';
import { THEMES, applyTheme, readTheme, type Theme } from './theme';

const THEME_LABELS: Record<Theme, string> = { system: 'Follow the system', light: 'Light', dark: 'Dark' };

function joinPath(dir: string, ...parts: string[]): string {
  const sep = dir.includes('\\') && !dir.includes('/') ? '\\' : '/';
  return [dir.replace(/[\\/]+$/, ''), ...parts].join(sep);
}

export function SettingsPanel() {
  const info = useStudioStore((s) => s.appInfo);
  const status = useStudioStore((s) => s.engineStatus);
  const [theme, setTheme] = useState<Theme>(() => readTheme(window.localStorage));
  const choose = (t: Theme) => {
    setTheme(t);
    applyTheme(t, window.localStorage);
  };
  const { targetLufs, truePeakCeilingDbtp } = DEFAULT_OUTPUT_LOUDNESS;
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
        <dl className="facts">
          <dt>Loudness</dt>
          <dd data-testid="output-loudness">
            every clip normalised to {targetLufs} LUFS integrated, true peak at most {truePeakCeilingDbtp} dBTP (one gain, no limiter; live streamed chunks come before that gain)
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
          <dd>{status?.model ? `${status.model.displayName}${status.model.synthetic ? ' — synthetic, random weights' : ''}` : 'none loaded'}</dd>
          <dt>Queue</dt>
          <dd>{status ? `${status.numRunning} running, ${status.numWaiting} waiting, ${status.numCompleted} done, ${status.numFailed} failed since start` : '…'}</dd>
        </dl>
        <p className="hint">Provider and engine settings are chosen when the host starts: <code>studio serve --provider cpu|webgpu|cuda --engine-config '{'{…}'}'</code>.</p>
      </div>
    </section>
  );
}
