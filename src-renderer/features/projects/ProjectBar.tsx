/**
 * The project bar above the editor: the project's name, Save, recent projects, when it was last
 * saved or autosaved, and the crash-recovery prompt when an unsaved session left an autosave.
 */
import { useStudioStore } from '../../store/store';
import { UNTITLED_PROJECT_NAME } from '../timeline/timeline.slice';
import { answerRecovery, hasUnsavedChanges, openProject, saveProject } from './project-actions';

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

export function ProjectBar() {
  const name = useStudioStore((s) => s.projectName);
  const path = useStudioStore((s) => s.projectPath);
  const recent = useStudioStore((s) => s.recentProjects);
  const savedAt = useStudioStore((s) => s.lastSavedAtMs);
  const autosavedAt = useStudioStore((s) => s.lastAutosavedAtMs);
  const error = useStudioStore((s) => s.projectError);
  const unsaved = useStudioStore((s) => hasUnsavedChanges(s));
  const setMeta = useStudioStore((s) => s.setProjectMeta);
  return (
    <div className="project-bar" role="group" aria-label="Project">
      <label>
        Project <input aria-label="Project name" value={name} onChange={(e) => setMeta({ projectName: e.target.value || UNTITLED_PROJECT_NAME })} />
      </label>
      <button onClick={() => void saveProject()} title={path ?? 'saved to the projects folder'}>Save</button>
      <select aria-label="Recent projects" value="" onChange={(e) => e.target.value && void openProject(e.target.value)}>
        <option value="">Recent projects…</option>
        {recent.map((r) => (
          <option key={r.path} value={r.path}>{r.name} — {new Date(r.savedAtMs).toLocaleString()}</option>
        ))}
      </select>
      <span className="muted" data-testid="save-state">
        {unsaved ? 'unsaved changes' : autosavedAt ? `autosaved ${timeOf(autosavedAt)}` : savedAt ? `saved ${timeOf(savedAt)}` : 'not saved yet'}
      </span>
      {error && <span role="alert" className="error">{error}</span>}
    </div>
  );
}
