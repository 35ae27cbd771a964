/**
 * The first-run panel, above the home page (Speak) on a fresh data folder: says plainly that the
 * embedded default is a synthetic model that makes noise, and leads to a real one — import a
 * checkpoint folder already on disk, or pull one from the hub — each confirmed with its sizes, built
 * with progress, and then one click ("Use …") from being the active model. It opens compact (two
 * lines, so Speak's Generate stays on screen at 1024×700); the two ways unfold on request.
 */
import { useEffect, useState } from 'react';
import type { PullPlan } from '../../../src-shared/contract/models';
import { ImportFolderForm } from '../../components/ImportFolderForm';
import { useStudioStore } from '../../store/store';
import { activateModel, confirmPull, planPull } from './models-actions';
import { PullConfirm, formatSize } from './PullConfirm';
import { dismissFirstRun, isFreshDataFolder, readFirstRunDismissed } from './first-run';
import { useModelList } from './useModelList';

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function FirstRun() {
  const models = useStudioStore((s) => s.models);
  const state = useStudioStore((s) => s.modelsState);
  const pending = useStudioStore((s) => s.pendingPull);
  const pulls = useStudioStore((s) => s.pulls);
  const error = useStudioStore((s) => s.modelsError);
  const activeModel = useStudioStore((s) => s.modelInfo);
  const switching = useStudioStore((s) => s.modelSwitching);
  const setFirstRunOpen = useStudioStore((s) => s.setFirstRunOpen);
  const [dismissed, setDismissed] = useState(() => readFirstRunDismissed(storage()));
  const [fresh, setFresh] = useState<boolean | null>(null);
  const [installing, setInstalling] = useState<PullPlan | null>(null);
  const [folder, setFolder] = useState('');
  const [expanded, setExpanded] = useState(false);

  useModelList();
  // Decided once, on the first list: a model installed here keeps the screen until it is active.
  useEffect(() => {
    if (fresh === null && models.length > 0) setFresh(isFreshDataFolder(models));
  }, [models, fresh]);

  const installed = installing ? models.find((m) => m.id === installing.id) : undefined;
  const done = installed !== undefined && activeModel?.id === installed.id;
  const open = !dismissed && fresh === true && !done;
  useEffect(() => () => setFirstRunOpen(false), [setFirstRunOpen]);
  useEffect(() => {
    setFirstRunOpen(open);
    if (done) dismissFirstRun(storage());
  }, [open, done, setFirstRunOpen]);
  if (!open) return null;

  const install = (build: boolean) => {
    const plan = useStudioStore.getState().pendingPull;
    if (!plan) return;
    setInstalling(plan);
    void confirmPull(build);
  };
  const progress = installing ? pulls[installing.id] : undefined;
  const known = models.filter((m) => m.kind === 'known' && m.repo);
  return (
    <section className="panel first-run" aria-labelledby="first-run-heading" data-testid="first-run">
      <div className="panel-head">
        <h2 id="first-run-heading">Welcome — set up a real model</h2>
        {!installing && (
          <button className="primary" aria-expanded={expanded} aria-controls="first-run-ways" onClick={() => setExpanded(!expanded)} data-testid="first-run-toggle">
            {expanded ? 'Hide' : 'Import or download a model…'}
          </button>
        )}
        <button
          onClick={() => {
            dismissFirstRun(storage());
            setDismissed(true);
          }}
          data-testid="first-run-dismiss"
        >
          Not now
        </button>
      </div>
      <p className="notice" role="note" data-testid="synthetic-notice">
        The loaded model is the embedded default: a synthetic checkpoint with random weights. It produces noise, not speech — good for trying the
        studio, not for listening. Import a Qwen3-TTS checkpoint folder you already have, or download one.
      </p>
      {error && (
        <p role="alert" className="error" data-testid="first-run-error">
          {error}
        </p>
      )}
      {installed && installed.status === 'ready' ? (
        <div className="toolbar" data-testid="first-run-ready">
          <span>
            <strong>{installed.displayName}</strong> is installed and built.
          </span>
          <button className="primary" disabled={switching} onClick={() => void activateModel(installed.id)} data-testid="first-run-use">
            {switching ? 'Loading…' : `Use ${installed.displayName}`}
          </button>
        </div>
      ) : installing ? (
        <div data-testid="first-run-progress" aria-live="polite">
          {progress ? (
            <>
              <progress max={Math.max(1, progress.numBytesTotal)} value={progress.numBytesDone} aria-label="Install progress" /> {progress.phase}: {progress.message}
            </>
          ) : (
            <span className="muted">Starting…</span>
          )}
          {installed && installed.status !== 'ready' && installed.status !== 'building' && !progress && <span className="muted"> {installed.status}</span>}
          {installed?.status === 'downloaded' && (
            <button onClick={() => void planPull(installed.id)} data-testid="first-run-build">
              Build it
            </button>
          )}
        </div>
      ) : expanded ? (
        <div id="first-run-ways">
          <h3>1. Import a checkpoint folder on this machine</h3>
          <ImportFolderForm value={folder} onChange={setFolder} onCheck={(path) => void planPull(path)}
            label="Folder" placeholder="/path/to/Qwen3-TTS-12Hz-0.6B-CustomVoice" testIds={{ path: 'first-run-path', check: 'first-run-check' }} />
          <h3>2. Or download one{state?.offline ? ' (offline now: downloads are off)' : ''}</h3>
          <ul className="first-run-models">
            {known.map((m) => (
              <li key={m.id}>
                <button disabled={state?.offline === true} onClick={() => void planPull(m.repo!)} data-testid={`first-run-pull-${m.id}`}>
                  {m.displayName}
                </button>{' '}
                <span className="muted">
                  {formatSize(m.sizeBytes)} · {m.summary}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {pending && !installing && <PullConfirm plan={pending} onConfirm={install} />}
    </section>
  );
}
