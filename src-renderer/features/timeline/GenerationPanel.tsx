/**
 * Generation controls and feedback: Generate (Ctrl/Cmd+Enter; refused with the reason while the
 * SSML has problems or the loaded model cannot speak a turn's voice), Cancel (Esc), progress per turn (frames done / estimated), the queue with each
 * job's state and position, and the last generation's error with the studio's message (which says
 * the fix) until a later one succeeds.
 */
import { useStudioStore } from '../../store/store';
import { CONNECTION_NOTICE_ID, hostBlockedReason } from '../../ipc/connection';
import { cancelAll, requestGenerate, turnVoiceBlocker } from '../../shared-state/generate-actions';
import type { GenerationJob } from '../../shared-state/generation-job';

function jobLabel(job: GenerationJob): string {
  if (job.kind === 'speak') return `Speak · seed ${job.seed}`;
  return job.kind === 'full' ? `Whole document · seed ${job.seed}` : `Turn ${job.turnIndex! + 1} new take · seed ${job.seed}`;
}

/** The failure to show: the latest finished job's, if it failed; a later success clears it. */
export function lastFailure(jobs: readonly GenerationJob[]): GenerationJob | null {
  const latest = [...jobs].reverse().find((j) => j.state === 'done' || j.state === 'failed');
  return latest?.state === 'failed' ? latest : null;
}

export function GenerationPanel() {
  const jobs = useStudioStore((s) => s.jobs);
  const engine = useStudioStore((s) => s.engineStatus);
  const diagnostics = useStudioStore((s) => s.diagnostics);
  const refusal = useStudioStore((s) => s.generateRefusal);
  const hostBlocked = useStudioStore((s) => hostBlockedReason(s.connection));
  const voiceBlocked = useStudioStore(turnVoiceBlocker);
  const blocked = hostBlocked ?? voiceBlocked ?? (diagnostics.length > 0 ? 'Fix the SSML problems first' : null);
  const clearFinished = useStudioStore((s) => s.clearFinishedJobs);
  const active = jobs.filter((j) => j.state === 'waiting' || j.state === 'running');
  const waiting = jobs.filter((j) => j.state === 'waiting');
  const lastFailed = lastFailure(jobs);
  return (
    <section className="panel generation-panel" aria-labelledby="generation-heading">
      <div className="panel-head">
        <h2 id="generation-heading">Generate</h2>
        <button className="primary" data-testid="generate" onClick={requestGenerate} aria-keyshortcuts="Control+Enter Meta+Enter" disabled={blocked !== null} title={blocked ?? 'Ctrl/Cmd+Enter'} aria-describedby={hostBlocked ? CONNECTION_NOTICE_ID : voiceBlocked ? 'generate-voice-blocked' : undefined}>
          Generate
        </button>
        <button data-testid="cancel" onClick={() => void cancelAll()} disabled={active.length === 0} aria-keyshortcuts="Escape">
          Cancel
        </button>
        {engine && <span className="muted">engine queue: {engine.numWaiting} waiting, {engine.numRunning} running</span>}
      </div>
      {voiceBlocked && !hostBlocked && (
        <p className="hint" role="status" id="generate-voice-blocked" data-testid="generate-blocked">
          {voiceBlocked}
        </p>
      )}
      {refusal && (
        <div role="alert" className="error-box" data-testid="generate-refused">
          {refusal}
        </div>
      )}
      {lastFailed?.error && (
        <div role="alert" className="error-box" data-testid="generation-error">
          <strong>Generation failed ({lastFailed.error.code}).</strong> {lastFailed.error.message}
        </div>
      )}
      {jobs.length > 0 && (
        <>
          <ol className="queue" aria-label="Generation queue" data-testid="queue">
            {jobs.map((j) => {
              const turns = Object.entries(j.progress);
              return (
                <li key={j.jobId} className={`job job-${j.state}`} data-state={j.state}>
                  <span className="job-state">{j.state === 'waiting' ? `waiting (#${waiting.indexOf(j) + 1})` : j.state}</span> {jobLabel(j)}
                  {turns.length > 0 && j.state === 'running' && (
                    <span className="job-progress">
                      {turns.map(([t, p]) => (
                        <span key={t} className="turn-progress">
                          <label>
                            turn {Number(t) + 1}:{' '}
                            <progress max={Math.max(1, p.numFramesEstimated)} value={Math.min(p.numFramesDone, p.numFramesEstimated)} aria-label={`Turn ${Number(t) + 1} progress`} />{' '}
                            {p.numFramesDone} / ~{p.numFramesEstimated} frames
                          </label>
                        </span>
                      ))}
                    </span>
                  )}
                  {j.firstAudioAtMs !== null && j.state === 'running' && <span className="muted"> · streaming</span>}
                </li>
              );
            })}
          </ol>
          <button onClick={clearFinished} disabled={active.length === jobs.length}>Clear finished</button>
        </>
      )}
    </section>
  );
}
