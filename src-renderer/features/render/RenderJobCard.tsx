/**
 * One render on the Render page: state, where its parts run, progress per chapter, retries and
 * failed parts with their reasons, Cancel while it runs, Resume when it stopped (finished parts
 * are kept), and the finished file with its Library clip; the voice by the name every screen shows.
 */
import type { RenderJob } from '../../../src-shared/contract/render';
import { useStudioStore } from '../../store/store';
import { voiceDisplayName } from '../../components/voice-names';
import { cancelRender, resumeRender } from './render-actions';

const STATE_LABELS: Record<RenderJob['state'], string> = {
  running: 'Rendering',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
  interrupted: 'Interrupted (the studio stopped); Resume goes on',
};

export function RenderJobCard({ job }: { job: RenderJob }) {
  const setArea = useStudioStore((s) => s.setArea);
  const savedVoices = useStudioStore((s) => s.savedVoices);
  return (
    <article className="render-job" data-testid="render-job" data-state={job.state} aria-label={`Render ${job.title}`}>
      <h3>{job.title}</h3>
      <div className="toolbar">
        <span className="job-state" data-testid="render-state">{STATE_LABELS[job.state]}</span>
        <span data-testid="render-count">{job.numDone}/{job.numParts} parts</span>
        <span className="muted">{job.mode === 'queue' ? 'on the render queue' : 'on this machine'} · {voiceDisplayName(job.voice, savedVoices)} · seed {job.seed}</span>
        {job.state === 'running' && <button aria-label={`Cancel ${job.title}`} onClick={() => void cancelRender(job.id)}>Cancel</button>}
        {(job.state === 'interrupted' || job.state === 'failed' || job.state === 'cancelled') && (
          <button aria-label={`Resume ${job.title}`} onClick={() => void resumeRender(job.id)}>Resume</button>
        )}
      </div>
      <div className="render-chapters" role="list" aria-label="Chapters">
        {job.chapters.map((c, i) => (
          <div key={i} role="listitem" data-testid="render-chapter" style={{ display: 'contents' }}>
            <span>{c.title}</span>
            <progress max={c.numParts} value={c.numDone} aria-label={`${c.title}: ${c.numDone} of ${c.numParts} parts`} />
            <span>{c.numDone}/{c.numParts}</span>
          </div>
        ))}
      </div>
      {job.retries.length > 0 && (
        <details>
          <summary>{job.retries.length} retried tr{job.retries.length === 1 ? 'y' : 'ies'}</summary>
          <ul className="render-problems">
            {job.retries.map((r, i) => (
              <li key={i}>Part {r.partIndex + 1}, try {r.attempt}: {r.reason}</li>
            ))}
          </ul>
        </details>
      )}
      {job.failures.length > 0 && (
        <ul className="render-problems" data-testid="render-failures">
          {job.failures.map((f) => (
            <li key={f.partIndex}>Part {f.partIndex + 1} (chapter {f.chapter + 1}) failed: {f.reason}</li>
          ))}
        </ul>
      )}
      {job.error && <p role="alert" className="error">{job.error}</p>}
      {job.outputPath && (
        <p className="hint">
          <span className="mono" data-testid="render-output">{job.outputPath}</span>
          {job.durationMs !== null && ` · ${(job.durationMs / 1000).toFixed(1)} s`}
          {job.clipId && (
            <>
              {' · '}
              <button className="link" onClick={() => setArea('library')}>In the Library</button>
            </>
          )}
        </p>
      )}
    </article>
  );
}
