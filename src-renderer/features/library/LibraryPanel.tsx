/**
 * The clip library: every generated clip with its text, voices (by the names the Timeline shows: a saved voice's, 'Uncle Fu'), parameters,
 * seed, duration, timings and model hash; search (text, title or a voice's name), a voice filter
 * (a clip matches by any of its turns' voices) and favourites only; per clip: favourite, rename, play, download as WAV, re-open in the editor
 * (asked first when it would replace unsaved work), delete (asked first). One entry per clip: a
 * regenerated turn is a take under its clip's entry, listed per turn with play and choose (named as
 * the Timeline names them: the turn's own audio is Take 1, its first regeneration Take 2); the
 * clip plays and downloads with its chosen takes in place. Every action reads or writes through the
 * studio host, so while it is away the buttons are off and say why.
 */
import { Fragment, useEffect, useState } from 'react';
import type { ClipRecord } from '../../../src-shared/contract/library';
import { useStudioStore } from '../../store/store';
import { deleteClip, downloadClip, loadTakes, playClip, refreshLibrary, reopenClip, reopenWouldReplaceWork, updateClip } from './library-actions';
import { loadSavedVoices } from '../../shared-state/voice-actions';
import { speakerDisplayName, voiceDisplayName } from '../../components/voice-names';
import { ColumnHeads } from '../../components/ColumnHeads';
import { clipModelLabel } from '../../components/model-name';
import { takeNameAt } from '../../components/take-name';
import { hostBlockedProps, useHostBlocked } from '../../shared-state/useHostBlocked';

/** A clip's takes, per turn: the clip's own audio or one of its takes, each playable and choosable. */
function ClipTakes({ clip }: { clip: ClipRecord }) {
  const savedVoices = useStudioStore((s) => s.savedVoices);
  const hostBlocked = useHostBlocked();
  const [takes, setTakes] = useState<ClipRecord[] | null>(null);
  useEffect(() => {
    let live = true;
    void loadTakes(clip.id).then((t) => live && setTakes(t));
    return () => {
      live = false;
    };
  }, [clip.id, clip.numTakes]);
  if (!takes) return <p className="muted">Loading takes…</p>;
  const turns = [...new Set(takes.map((t) => t.takeOf?.turnIndex ?? 0))].sort((a, b) => a - b);
  return (
    <div className="clip-takes">
      {turns.map((turnIndex) => {
        const chosen = clip.chosenTakes[turnIndex] ?? null;
        const ofTurn = takes.filter((t) => (t.takeOf?.turnIndex ?? 0) === turnIndex);
        const name = `clip-${clip.id}-turn-${turnIndex}`;
        return (
          <fieldset key={turnIndex} data-testid={`clip-turn-${turnIndex}`}>
            <legend>Turn {turnIndex + 1}</legend>
            <label>
              <input type="radio" name={name} checked={chosen === null} disabled={hostBlocked !== null} {...hostBlockedProps(hostBlocked)} onChange={() => void updateClip(clip.id, { chooseTake: { turnIndex, takeId: null } })} /> {takeNameAt(0)} · original · seed {clip.seed}
            </label>
            {ofTurn.map((t, i) => (
              <span key={t.id} className="inline">
                <label>
                  <input type="radio" name={name} checked={chosen === t.id} disabled={hostBlocked !== null} {...hostBlockedProps(hostBlocked)} onChange={() => void updateClip(clip.id, { chooseTake: { turnIndex, takeId: t.id } })} data-testid="take-choose" /> {takeNameAt(i + 1)} · {voiceDisplayName(t.voice, savedVoices)} · seed {t.seed} · {(t.durationMs / 1000).toFixed(2)} s
                </label>
                <button aria-label={`Play turn ${turnIndex + 1} ${takeNameAt(i + 1)}`} disabled={hostBlocked !== null} {...hostBlockedProps(hostBlocked)} onClick={() => void playClip(t.id)}>
                  Play
                </button>
              </span>
            ))}
          </fieldset>
        );
      })}
    </div>
  );
}

function ClipTitle({ clip }: { clip: ClipRecord }) {
  const [draft, setDraft] = useState<string | null>(null);
  const hostBlocked = useHostBlocked();
  const off = hostBlocked !== null;
  if (draft === null) {
    return (
      <div className="clip-title">
        <button
          className={`star${clip.favourite ? ' on' : ''}`}
          aria-pressed={clip.favourite}
          aria-label={clip.favourite ? `Unmark ${clip.title} as favourite` : `Mark ${clip.title} as favourite`}
          title={clip.favourite ? 'Favourite' : 'Mark as favourite'}
          disabled={off}
          {...hostBlockedProps(hostBlocked)}
          onClick={() => void updateClip(clip.id, { favourite: !clip.favourite })}
          data-testid="clip-favourite"
        >
          {clip.favourite ? '★' : '☆'}
        </button>{' '}
        <span data-testid="clip-title">{clip.title}</span>{' '}
        <button className="link" aria-label={`Rename ${clip.title}`} disabled={off} {...hostBlockedProps(hostBlocked)} onClick={() => setDraft(clip.title)}>Rename</button>
      </div>
    );
  }
  const save = () => {
    const title = draft.trim();
    setDraft(null);
    if (title && title !== clip.title) void updateClip(clip.id, { title });
  };
  return (
    <form
      className="clip-title"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <input aria-label="New clip title" value={draft} maxLength={200} autoFocus onChange={(e) => setDraft(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setDraft(null)} />{' '}
      <button type="submit" disabled={!draft.trim() || off} {...hostBlockedProps(hostBlocked)}>Save</button> <button type="button" onClick={() => setDraft(null)}>Cancel</button>
    </form>
  );
}

export function LibraryPanel() {
  const clips = useStudioStore((s) => s.libraryClips);
  const search = useStudioStore((s) => s.librarySearch);
  const voice = useStudioStore((s) => s.libraryVoice);
  const favouritesOnly = useStudioStore((s) => s.libraryFavouritesOnly);
  const projectName = useStudioStore((s) => s.projectName);
  const error = useStudioStore((s) => s.libraryError);
  const voices = useStudioStore((s) => s.voices);
  const savedVoices = useStudioStore((s) => s.savedVoices);
  const modelInfo = useStudioStore((s) => s.modelInfo);
  const models = useStudioStore((s) => s.models);
  const setFilter = useStudioStore((s) => s.setLibraryFilter);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  const [confirmReopen, setConfirmReopen] = useState<string | null>(null);
  const [openTakes, setOpenTakes] = useState<string | null>(null);
  const hostBlocked = useHostBlocked();
  const off = hostBlocked !== null;
  const offProps = { disabled: off, ...hostBlockedProps(hostBlocked) };

  useEffect(() => {
    void loadSavedVoices();
  }, []);
  // The saved voices' names take part in the search, so a later list of them searches again.
  useEffect(() => {
    const timer = setTimeout(() => void refreshLibrary(), 200);
    return () => clearTimeout(timer);
  }, [search, voice, favouritesOnly, savedVoices]);

  const askReopen = (c: ClipRecord) => {
    if (reopenWouldReplaceWork(undefined, c)) setConfirmReopen(c.id);
    else void reopenClip(c);
  };

  return (
    <section className="panel library-panel" aria-labelledby="library-heading">
      <h2 id="library-heading">Library</h2>
      <div className="toolbar" role="search">
        <input type="search" aria-label="Search clips" placeholder="Search text, title or voice" value={search} onChange={(e) => setFilter({ search: e.target.value })} />
        <select aria-label="Filter by voice" value={voice} onChange={(e) => setFilter({ voice: e.target.value })}>
          <option value="">All voices</option>
          {voices.map((v) => (
            <option key={v.name} value={v.name}>{speakerDisplayName(v.name)}</option>
          ))}
          {savedVoices.length > 0 && (
            <optgroup label="Saved voices">
              {savedVoices.map((v) => (
                <option key={v.id} value={v.id}>{v.name}</option>
              ))}
            </optgroup>
          )}
        </select>
        <label>
          <input type="checkbox" checked={favouritesOnly} onChange={(e) => setFilter({ favouritesOnly: e.target.checked })} data-testid="library-favourites-only" /> Favourites only
        </label>
        <button {...offProps} onClick={() => void refreshLibrary()}>Refresh</button>
      </div>
      {error && <p role="alert" className="error">{error}</p>}
      {clips.length === 0 ? (
        <p className="hint">No clips{search || voice || favouritesOnly ? ' match the filter' : ' yet; every generation lands here'}.</p>
      ) : (
        <div className="table-scroll">
        <table className="clips" data-testid="library-table">
          <ColumnHeads columns={['Clip', 'Voices', 'Seed', 'Duration', 'Timings', 'Parameters', 'Model', { srOnly: 'Actions' }]} />
          <tbody>
            {clips.map((c) => (
              <Fragment key={c.id}>
              <tr data-testid="library-clip">
                <td>
                  <ClipTitle clip={c} />
                  <div className="muted clip-text" title={c.input}>{c.inputFormat.toUpperCase()} · {new Date(c.createdAtMs).toLocaleString()}</div>
                  {c.numTakes > 0 && (
                    <button className="link" aria-expanded={openTakes === c.id} {...offProps} onClick={() => setOpenTakes(openTakes === c.id ? null : c.id)} data-testid="clip-takes-toggle">
                      {c.numTakes} take{c.numTakes > 1 ? 's' : ''} {openTakes === c.id ? '▾' : '▸'}
                    </button>
                  )}
                </td>
                <td data-testid="clip-voices">{[...new Set(c.voices.map((v) => voiceDisplayName(v, savedVoices)))].join(', ')}<div className="muted">{c.language}</div></td>
                <td>{c.seed}</td>
                <td>{(c.durationMs / 1000).toFixed(2)} s</td>
                <td className="muted">first audio {c.timings.latencyFirstAudioMs.toFixed(0)} ms · total {c.timings.latencyTotalMs.toFixed(0)} ms · RTF {c.timings.rtf.toFixed(2)}</td>
                <td className="muted">T {c.params.temperature} · k {c.params.topK} · p {c.params.topP}</td>
                <td className="muted" title={`checkpoint ${c.modelHash}`} data-testid="clip-model">{clipModelLabel(c.modelHash, modelInfo, models)}</td>
                <td className="actions">
                  <button aria-label={`Play ${c.title}`} {...offProps} onClick={() => void playClip(c.id)}>Play</button>
                  {confirmReopen === c.id ? (
                    <span className="inline" role="group" aria-label={`Re-open ${c.title}?`} data-testid="reopen-confirm">
                      <span className="confirm-text">Replace “{projectName}” in the Timeline? Its unsaved changes are lost.</span>
                      <button aria-label={`Yes, re-open ${c.title}`} {...offProps} onClick={() => { setConfirmReopen(null); void reopenClip(c); }}>Replace</button>
                      <button onClick={() => setConfirmReopen(null)}>Keep mine</button>
                    </span>
                  ) : (
                    <button aria-label={`Re-open ${c.title} in the editor`} {...offProps} onClick={() => askReopen(c)}>Re-open</button>
                  )}
                  <button aria-label={`Download ${c.title} as WAV`} {...offProps} onClick={() => void downloadClip(c)}>WAV</button>
                  {confirmDelete === c.id ? (
                    <span className="inline" role="group" aria-label={`Delete ${c.title}?`}>
                      Delete for good?
                      <button aria-label={`Yes, delete ${c.title}`} {...offProps} onClick={() => void deleteClip(c.id).then(() => setConfirmDelete(null))}>Delete</button>
                      <button onClick={() => setConfirmDelete(null)}>Keep</button>
                    </span>
                  ) : (
                    <button aria-label={`Delete ${c.title}`} {...offProps} onClick={() => setConfirmDelete(c.id)}>Delete…</button>
                  )}
                </td>
              </tr>
              {openTakes === c.id && (
                <tr data-testid="clip-takes">
                  <td colSpan={8}>
                    <ClipTakes clip={c} />
                  </td>
                </tr>
              )}
              </Fragment>
            ))}
          </tbody>
        </table>
        </div>
      )}
    </section>
  );
}
