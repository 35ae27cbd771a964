/**
 * The Timeline area: the project bar, the SSML editor, generation controls and the timeline.
 * Its own chunk (CodeMirror, wavesurfer), loaded when the area is first opened.
 */
import { EditorPanel } from '../features/editor/EditorPanel';
import { ProjectBar } from '../features/projects/ProjectBar';
import { GenerationPanel } from '../features/timeline/GenerationPanel';
import { TimelinePanel } from '../features/timeline/TimelinePanel';
import { requestGenerate } from '../shared-state/generate-actions';

export function Workspace() {
  return (
    <div className="workspace">
      <ProjectBar />
      <EditorPanel onSubmit={requestGenerate} />
      <GenerationPanel />
      <TimelinePanel />
    </div>
  );
}
