/**
 * The project bar above the editor: the project's name, New (asks when changes are unsaved), Save,
 * Save as, Open from recent projects or the projects folder, Delete of the open project's file
 * (asks first), when it was last saved or autosaved; and the recovery prompt for unsaved work.
 */
import { useEffect, useState } from 'react';
import { useStudioStore } from '../../store/store';
import { UNTITLED_PROJECT_NAME } from '../../shared-state/project-defaults';
import { saveStateText } from './save-state';
import { answerRecovery, deleteProjectFile, newProject, refreshProjectFiles, saveProject, saveProjectAs } from './project-actions';
import { hasChangesOutsideItsFile, openProject } from '../../shared-state/project-document';

function timeOf(ms: number | null): string {
  return ms === null ? '' : new Date(ms).toLocaleTimeString();
}

export function RecoveryPrompt() {
  const recovery = useStudioStore((s) => s.recovery);
  if (!recovery) return null;
  return (
    <div className="recovery" role="alertdialog" aria-labelledby="recovery-title" aria-describedby="recovery-body" data-testid="recovery-prompt">
      <strong id="recovery-title">Restore unsaved work?</strong>{' '}
      <span id="recovery-body">
        Your last session left changes to “{recovery.project.name}” (autosaved {new Date(recovery.autosavedAtMs).toLocaleString()}) that were never saved to a project file.
      </span>{' '}
      <button className="primary" onClick={() => void answerRecovery(true)}>Restore</button>{' '}
      <button onClick={() => void answerRecovery(false)}>Discard</button>
    </div>
  );
}

type Pending = { kind: 'new' } | { kind: 'save-as'; name: string } | { kind: 'delete' } | null;

export function ProjectBar() {
  const name = useStudioStore((s) => s.projectName);
  const path = useStudioStore((s) => s.projectPath);
  const recent = useStudioStore((s) => s.recentProjects);
  const files = useStudioStore((s) => s.projectFiles);
  const error = useStudioStore((s) => s.projectError);
  const saveState = useStudioStore((s) => saveStateText(s, timeOf));
  const setMeta = useStudioStore((s) => s.setProjectMeta);
  const [pending, setPending] = useState<Pending>(null);
  useEffect(() => {
    void refreshProjectFiles();
  }, []);
  const inFolder = path !== null && files.some((f) => f.path === path);
  const startNew = () => {
    if (hasChangesOutsideItsFile()) setPending({ kind: 'new' });
    else newProject();
  };
  return (
    <div className="project-bar" role="group" aria-label="Project">
      <label>
        Project <input aria-label="Project name" value={name} onChange={(e) => setMeta({ projectName: e.target.value || UNTITLED_PROJECT_NAME })} />
      </label>
      <button onClick={startNew} data-testid="project-new">New</button>
      <button onClick={() => void saveProject().then(refreshProjectFiles)} title={path ?? 'saved to the projects folder'} data-testid="project-save">Save</button>
      <button onClick={() => setPending({ kind: 'save-as', name: `${name} copy` })} data-testid="project-save-as">Save as…</button>
      <select aria-label="Open project" value="" onFocus={() => void refreshProjectFiles()} onChange={(e) => e.target.value && void openProject(e.target.value)} data-testid="project-open">
        <option value="">Open…</option>
        {recent.length > 0 && (
          <optgroup label="Recent">
            {recent.map((r) => (
              <option key={`r:${r.path}`} value={r.path}>{r.name} — {new Date(r.savedAtMs).toLocaleString()}</option>
            ))}
          </optgroup>
        )}
        {files.length > 0 && (
          <optgroup label="Projects folder">
            {files.map((r) => (
              <option key={`f:${r.path}`} value={r.path}>{r.name} — {r.path.split(/[\\/]/).pop()}</option>
            ))}
          </optgroup>
        )}
      </select>
      <button onClick={() => setPending({ kind: 'delete' })} disabled={!inFolder} title={inFolder ? `delete ${path}` : 'only a project saved in the projects folder can be deleted'} data-testid="project-delete">
        Delete…
      </button>
      <span className="muted" data-testid="save-state">
        {saveState}
      </span>
      {error && <span role="alert" className="error">{error}</span>}
      {pending?.kind === 'new' && (
        <div className="confirm-card" role="alertdialog" aria-label="Discard unsaved changes" data-testid="project-confirm">
          “{name}” has unsaved changes. Start a new project anyway?{' '}
          <button className="primary" onClick={() => { setPending(null); newProject(); }}>Discard and start new</button>{' '}
          <button onClick={() => setPending(null)}>Keep working</button>
        </div>
      )}
      {pending?.kind === 'delete' && path && (
        <div className="confirm-card" role="alertdialog" aria-label="Delete project file" data-testid="project-confirm">
          Delete the project file {path.split(/[\\/]/).pop()}? Its clips stay in the Library; the document stays open, unsaved.{' '}
          <button className="primary" onClick={() => { setPending(null); void deleteProjectFile(path); }}>Delete file</button>{' '}
          <button onClick={() => setPending(null)}>Keep</button>
        </div>
      )}
      {pending?.kind === 'save-as' && (
        <form
          className="confirm-card"
          aria-label="Save as"
          onSubmit={(e) => {
            e.preventDefault();
            const next = pending.name;
            setPending(null);
            void saveProjectAs(next);
          }}
        >
          <label>
            Save as <input aria-label="New project name" value={pending.name} autoFocus onChange={(e) => setPending({ kind: 'save-as', name: e.target.value })} />
          </label>{' '}
          <button type="submit" className="primary" disabled={!pending.name.trim()}>Save copy</button>{' '}
          <button type="button" onClick={() => setPending(null)}>Cancel</button>
        </form>
      )}
    </div>
  );
}
