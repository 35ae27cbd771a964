/**
 * The Models page: online/offline state and free space; the embedded test model, installed and
 * known hub models with size and status; pull by hub repo id or import a checkpoint folder, each
 * confirmed with its download/build size against free space; progress, cancel, build, verify,
 * remove (confirmed) and "Use" to make a ready model the active one.
 */
import { useState } from 'react';
import { ColumnHeads } from '../../components/ColumnHeads';
import { ImportFolderForm } from '../../components/ImportFolderForm';
import { useStudioStore } from '../../store/store';
import type { ModelEntry, PullProgress } from '../../../src-shared/contract/models';
import { activateModel, cancelPull, planPull, removeModel, runPull, verifyModel } from './models-actions';
import { PullConfirm, formatSize } from './PullConfirm';
import { modelEntryName, modelEntryTypeLabel } from '../../components/model-name';
import { useModelList } from './useModelList';
import { hostBlockedProps, useHostBlocked } from '../../shared-state/useHostBlocked';

export { formatSize };

const RUNNING: ReadonlySet<PullProgress['phase']> = new Set(['download', 'verify', 'build']);

function ModelRow({ m, activeId }: { m: ModelEntry; activeId: string | null }) {
  const name = useStudioStore((s) => modelEntryName(m, s.modelInfo, s.models));
  const typeLabel = useStudioStore((s) => modelEntryTypeLabel(m, s.modelInfo));
  const p = useStudioStore((s) => s.pulls[m.id]);
  const switching = useStudioStore((s) => s.modelSwitching);
  const hostBlocked = useHostBlocked();
  const host = hostBlockedProps(hostBlocked);
  const [note, setNote] = useState<string | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const running = p !== undefined && RUNNING.has(p.phase);
  const source = m.repo ?? m.localPath;
  const active = activeId === m.id;
  return (
    <tr data-testid={`model-${m.id}`}>
      <td>
        <strong>{name}</strong>
        {typeLabel && <span className="badge" data-testid="model-type"> {typeLabel}</span>}
        {active && <span className="badge" data-testid="model-active"> active</span>}
        {m.synthetic && <span className="muted"> — random weights, produces noise</span>}
        <div className="muted">{m.summary}</div>
        {m.repo && <div className="muted mono">{m.repo}</div>}
        {m.localPath && <div className="muted mono">{m.localPath}</div>}
      </td>
      <td data-testid="model-status">
        {m.status}
        {running && (
          <div>
            <progress max={Math.max(1, p.numBytesTotal)} value={p.numBytesDone} aria-label={`${name} pull progress`} /> {p.phase}{' '}
            {p.phase === 'build' ? `${Math.round((p.numBytesDone / Math.max(1, p.numBytesTotal)) * 100)} %` : `${formatSize(p.numBytesDone)} of ${formatSize(p.numBytesTotal)}`}
            <div className="muted">{p.message}</div>
          </div>
        )}
        {p && (p.phase === 'failed' || p.phase === 'cancelled') && <div className="muted">{p.message}</div>}
        {note && <div className="muted">{note}</div>}
      </td>
      <td>{formatSize(m.sizeBytes)}</td>
      <td className="actions">
        {running && <button onClick={() => void cancelPull(m.id)}>Cancel</button>}
        {!running && m.kind === 'known' && source && (
          <button onClick={() => void planPull(source)} data-testid={`pull-${m.id}`} disabled={hostBlocked !== null} {...host}>
            Pull…
          </button>
        )}
        {!running && m.kind === 'installed' && m.status === 'downloading' && source && <button onClick={() => void runPull(source)} disabled={hostBlocked !== null} {...host}>Resume pull</button>}
        {!running && m.kind === 'installed' && (m.status === 'downloaded' || m.status === 'building') && (
          <button onClick={() => void runPull(m.id)} data-testid={`build-${m.id}`} disabled={hostBlocked !== null} {...host}>
            Build
          </button>
        )}
        {m.status === 'ready' && !active && (
          <button className="primary" disabled={switching || hostBlocked !== null} onClick={() => void activateModel(m.id)} data-testid={`use-${m.id}`} {...host}>
            {switching ? 'Loading…' : 'Use'}
          </button>
        )}
        {m.kind !== 'known' && !running && <button onClick={() => void verifyModel(m.id).then(setNote)}>Verify</button>}
        {m.kind === 'installed' && !running && !confirmRemove && <button onClick={() => setConfirmRemove(true)}>Remove…</button>}
        {confirmRemove && (
          <span className="inline" role="group" aria-label={`Remove ${name}`}>
            {m.localPath ? 'Forget it (the folder stays)?' : `Delete ${formatSize(m.sizeBytes)}?`}
            <button onClick={() => void removeModel(m.id).then(() => setConfirmRemove(false))}>Remove</button>
            <button onClick={() => setConfirmRemove(false)}>Keep</button>
          </span>
        )}
      </td>
    </tr>
  );
}

export function ModelsPanel() {
  const models = useStudioStore((s) => s.models);
  const state = useStudioStore((s) => s.modelsState);
  const error = useStudioStore((s) => s.modelsError);
  const pending = useStudioStore((s) => s.pendingPull);
  const activeId = useStudioStore((s) => s.modelInfo?.id ?? null);
  const [folder, setFolder] = useState('');

  useModelList();

  return (
    <section className="panel models-panel" aria-labelledby="models-heading">
      <div className="panel-head">
        <h2 id="models-heading">Models</h2>
        {state && (
          <span className={state.offline ? 'chip chip-warn' : 'chip'} data-testid="models-online" title={state.offline ? 'STUDIO_OFFLINE=1 or HF_HUB_OFFLINE=1 is set' : state.endpoint}>
            {state.offline ? 'Offline — downloads are off; folders still import' : `Online · ${state.endpoint.replace(/^https?:\/\//, '')}`}
          </span>
        )}
        {state && <span className="muted" data-testid="models-free">{formatSize(state.freeBytes)} free in {state.modelsDir}</span>}
      </div>
      {error && (
        <p role="alert" className="error" data-testid="models-error">
          {error}
        </p>
      )}
      <ImportFolderForm value={folder} onChange={setFolder} onCheck={(path) => void planPull(path)}
        label="Checkpoint folder or hub repo" placeholder="/path/to/Qwen3-TTS-12Hz-0.6B-CustomVoice or Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice" testIds={{ path: 'import-path', check: 'import-check' }} />
      {pending && <PullConfirm plan={pending} />}
      <table className="clips" data-testid="models-table">
        <ColumnHeads columns={['Model', 'Status', 'Size', { srOnly: 'Actions' }]} />
        <tbody>
          {models.map((m) => (
            <ModelRow key={m.id} m={m} activeId={activeId} />
          ))}
        </tbody>
      </table>
    </section>
  );
}
