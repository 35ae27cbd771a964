/**
 * The clip library: every generated clip with its text, voice, parameters, seed, duration,
 * timings and model hash; search and a voice filter; play, download as WAV, re-open in the editor,
 * delete (asked first).
 */
import { useEffect, useState } from 'react';
import { useStudioStore } from '../../store/store';
import { deleteClip, downloadClip, playClip, refreshLibrary, reopenClip } from './library-actions';

export function LibraryPanel() {
  const clips = useStudioStore((s) => s.libraryClips);
  const search = useStudioStore((s) => s.librarySearch);
  const voice = useStudioStore((s) => s.libraryVoice);
  const error = useStudioStore((s) => s.libraryError);
  const voices = useStudioStore((s) => s.voices);
  const setFilter = useStudioStore((s) => s.setLibraryFilter);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => void refreshLibrary(), 200);
    return () => clearTimeout(timer);
  }, [search, voice]);

  return (
    <section className="panel library-panel" aria-labelledby="library-heading">
      <h2 id="library-heading">Library</h2>
      <div className="toolbar" role="search">
        <input type="search" aria-label="Search clips" placeholder="Search text or title" value={search} onChange={(e) => setFilter({ search: e.target.value })} />
        <select aria-label="Filter by voice" value={voice} onChange={(e) => setFilter({ voice: e.target.value })}>
          <option value="">All voices</option>
          {voices.map((v) => (
            <option key={v.name} value={v.name}>{v.name}</option>
          ))}
        </select>
        <button onClick={() => void refreshLibrary()}>Refresh</button>
      </div>
      {error && <p role="alert" className="error">{error}</p>}
      {clips.length === 0 ? (
        <p className="hint">No clips{search || voice ? ' match the filter' : ' yet; every generation lands here'}.</p>
      ) : (
        <table className="clips" data-testid="library-table">
          <thead>
            <tr>
              <th scope="col">Clip</th>
              <th scope="col">Voice</th>
              <th scope="col">Seed</th>
              <th scope="col">Duration</th>
              <th scope="col">Timings</th>
              <th scope="col">Parameters</th>
              <th scope="col">Model</th>
              <th scope="col"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {clips.map((c) => (
              <tr key={c.id} data-testid="library-clip">
                <td>
                  <div className="clip-title">{c.title}</div>
                  <div className="muted clip-text" title={c.input}>{c.inputFormat.toUpperCase()} · {new Date(c.createdAtMs).toLocaleString()}</div>
                </td>
                <td>{c.voice}<div className="muted">{c.language}</div></td>
                <td>{c.seed}</td>
                <td>{(c.durationMs / 1000).toFixed(2)} s</td>
                <td className="muted">first audio {c.timings.latencyFirstAudioMs.toFixed(0)} ms · total {c.timings.latencyTotalMs.toFixed(0)} ms · RTF {c.timings.rtf.toFixed(2)}</td>
                <td className="muted">T {c.params.temperature} · k {c.params.topK} · p {c.params.topP}</td>
                <td className="muted" title={c.modelHash}>{c.modelHash.slice(0, 10)}</td>
                <td className="actions">
                  <button aria-label={`Play ${c.title}`} onClick={() => void playClip(c.id)}>Play</button>
                  <button aria-label={`Re-open ${c.title} in the editor`} onClick={() => void reopenClip(c)}>Re-open</button>
                  <button aria-label={`Download ${c.title} as WAV`} onClick={() => void downloadClip(c)}>WAV</button>
                  {confirmDelete === c.id ? (
                    <span className="inline" role="group" aria-label={`Delete ${c.title}?`}>
                      Delete for good?
                      <button aria-label={`Yes, delete ${c.title}`} onClick={() => void deleteClip(c.id).then(() => setConfirmDelete(null))}>Delete</button>
                      <button onClick={() => setConfirmDelete(null)}>Keep</button>
                    </span>
                  ) : (
                    <button aria-label={`Delete ${c.title}`} onClick={() => setConfirmDelete(c.id)}>Delete…</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
