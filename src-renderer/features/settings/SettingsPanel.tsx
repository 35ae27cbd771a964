/**
 * Settings: what this studio is running on — host kind, version, data folder, engine provider
 * and why it was chosen, and the loaded model.
 */
import { useStudioStore } from '../../store/store';

export function SettingsPanel() {
  const info = useStudioStore((s) => s.appInfo);
  const status = useStudioStore((s) => s.engineStatus);
  return (
    <section>
      <h2>Settings</h2>
      <dl className="facts">
        <dt>Host</dt>
        <dd data-testid="host-kind">{info?.hostKind ?? '…'}</dd>
        <dt>Version</dt>
        <dd>{info?.version ?? '…'}</dd>
        <dt>Data folder</dt>
        <dd>{info?.userDataDir ?? '…'}</dd>
        <dt>Execution provider</dt>
        <dd>{status ? `${status.provider} (${status.providerReason})` : '…'}</dd>
        <dt>Model</dt>
        <dd>{status?.model ? `${status.model.displayName}${status.model.synthetic ? ' — synthetic, random weights' : ''}` : 'none loaded'}</dd>
      </dl>
    </section>
  );
}
