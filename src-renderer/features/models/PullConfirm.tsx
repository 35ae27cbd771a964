/**
 * The confirmation shown before a pull or import: what it reads or downloads, the build size and
 * the free space, and why it cannot run when it cannot. Shared by the Models page and first run.
 */
import { useStudioStore } from '../../store/store';
import type { PullPlan } from '../../../src-shared/contract/models';
import { confirmPull } from './models-actions';

/** Decimal units, as the hub shows sizes: 2520000000 → "2.52 GB". */
export function formatSize(bytes: number | null): string {
  if (bytes === null) return 'unknown';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

export function PullConfirm({ plan, onConfirm = (build) => void confirmPull(build) }: { plan: PullPlan; onConfirm?: (build: boolean) => void }) {
  const setPendingPull = useStudioStore((s) => s.setPendingPull);
  const what = plan.kind === 'hub' ? `Download ${plan.target}` : `Import ${plan.target}`;
  return (
    <div className="confirm-card" role="dialog" aria-labelledby="pull-confirm-title" data-testid="pull-confirm">
      <h3 id="pull-confirm-title">{what}?</h3>
      <dl className="facts">
        {plan.kind === 'hub' && (
          <>
            <dt>Download</dt>
            <dd data-testid="pull-download-size">{plan.downloadBytes === 0 ? 'nothing (already downloaded)' : `about ${formatSize(plan.downloadBytes)}`}</dd>
          </>
        )}
        {plan.kind === 'local' && (
          <>
            <dt>Source</dt>
            <dd>read in place (not copied); every file is hashed</dd>
          </>
        )}
        <dt>Build (ONNX graphs)</dt>
        <dd>{plan.buildBytes === 0 ? 'already built' : `about ${formatSize(plan.buildBytes)}`}</dd>
        <dt>Free space</dt>
        <dd data-testid="pull-free-space">{formatSize(plan.freeBytes)}</dd>
      </dl>
      {plan.blockedReason && (
        <p role="alert" className="error" data-testid="pull-blocked">
          {plan.blockedReason}
        </p>
      )}
      <div className="toolbar">
        <button className="primary" disabled={plan.blockedReason !== null} onClick={() => onConfirm(true)} data-testid="pull-confirm-go">
          {plan.kind === 'hub' ? 'Download and build' : 'Import and build'}
        </button>
        <button disabled={plan.blockedReason !== null} onClick={() => onConfirm(false)}>
          {plan.kind === 'hub' ? 'Download only' : 'Import only'}
        </button>
        <button onClick={() => setPendingPull(null)}>Cancel</button>
      </div>
    </div>
  );
}

