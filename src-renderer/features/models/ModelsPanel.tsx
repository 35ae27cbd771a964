/**
 * The model manager page: the embedded test model (random weights, noise), installed and known
 * hub models with size and status; pull with progress, verify, remove.
 */
import { useEffect, useState } from 'react';
import { CHANNELS, EVENTS } from '../../../src-shared/ipc-contract';
import { toStudioError } from '../../../src-shared/errors';
import { call, subscribe } from '../../ipc/client';
import { useStudioStore } from '../../store/store';
import type { ModelEntry } from '../../../src-shared/contract/models';

function mib(bytes: number | null): string {
  return bytes === null ? '—' : bytes > 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(1)} GiB` : `${(bytes / 2 ** 20).toFixed(0)} MiB`;
}

export function ModelsPanel() {
  const [models, setModels] = useState<ModelEntry[]>([]);
  const pulls = useStudioStore((s) => s.pulls);
  const error = useStudioStore((s) => s.modelsError);
  const setPull = useStudioStore((s) => s.setPull);
  const setError = useStudioStore((s) => s.setModelsError);
  const [verify, setVerify] = useState<Record<string, string>>({});

  const refresh = () =>
    call(CHANNELS.listModels, {})
      .then(setModels)
      .catch((err: unknown) => setError(toStudioError(err).message));
  useEffect(() => {
    void refresh();
    return subscribe(EVENTS.onDidProgressPull, setPull);
  }, []);

  const act = async (fn: () => Promise<unknown>) => {
    try {
      setError(null);
      await fn();
    } catch (err) {
      setError(toStudioError(err).message);
    }
    await refresh();
  };

  return (
    <section className="panel models-panel" aria-labelledby="models-heading">
      <h2 id="models-heading">Models</h2>
      {error && <p role="alert" className="error">{error}</p>}
      <table className="clips" data-testid="models-table">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Status</th>
            <th scope="col">Size</th>
            <th scope="col"><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {models.map((m) => {
            const p = pulls[m.id];
            return (
              <tr key={m.id}>
                <td>
                  <strong>{m.displayName}</strong>
                  {m.synthetic && <span className="muted"> — random weights, produces noise</span>}
                  <div className="muted">{m.summary}</div>
                </td>
                <td>
                  {m.status}
                  {p && p.phase !== 'done' && (
                    <div>
                      <progress max={Math.max(1, p.numBytesTotal)} value={p.numBytesDone} aria-label={`${m.displayName} pull progress`} /> {p.phase} {p.message}
                    </div>
                  )}
                  {verify[m.id] && <div className="muted">{verify[m.id]}</div>}
                </td>
                <td>{mib(m.sizeBytes)}</td>
                <td className="actions">
                  {m.kind === 'known' && <button onClick={() => void act(() => call(CHANNELS.pullModel, { modelId: m.id }))}>Pull</button>}
                  {m.kind === 'installed' && m.status !== 'ready' && <button onClick={() => void act(() => call(CHANNELS.pullModel, { modelId: m.id }))}>Resume pull</button>}
                  {m.kind !== 'known' && (
                    <button onClick={() => void act(async () => { const r = await call(CHANNELS.verifyModel, { modelId: m.id }); setVerify((v) => ({ ...v, [m.id]: r.ok ? 'verified' : r.problems.join('; ') })); })}>Verify</button>
                  )}
                  {m.kind === 'installed' && <button onClick={() => void act(() => call(CHANNELS.removeModel, { modelId: m.id }))}>Remove</button>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
