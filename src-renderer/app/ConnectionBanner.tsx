/**
 * What the shell says while the studio host is away (reconnecting by itself) or no longer knows
 * this browser (it restarted: sign in again with the new link the terminal printed). Renders
 * nothing while connected. Buttons that need the host point here with aria-describedby.
 */
import { CONNECTION_NOTICE_ID, type ConnectionState } from '../ipc/connection';

export function ConnectionBanner({ connection }: { connection: ConnectionState }) {
  if (connection.state === 'connected' || connection.state === 'connecting') return null;
  const signedOut = connection.state === 'signed-out';
  return (
    <div className="notice connection-banner" role="alert" id={CONNECTION_NOTICE_ID} data-testid="connection-banner" data-state={connection.state}>
      {signedOut ? (
        <>
          <strong>Signed out.</strong> The studio host restarted, which signs every browser out. Open the new sign-in link printed by the
          terminal that runs <code>studio serve</code> (<code>http://…/?token=…</code>), in this tab or another; this page reconnects by
          itself. Actions that need the host, such as Generate, are off until then.
        </>
      ) : (
        <>
          <strong>Disconnected.</strong> {sentence(connection.reason)} Reconnecting by itself; actions that need the host, such as
          Generate, are off until it is back.
        </>
      )}
    </div>
  );
}

/** 'the host closed' → 'The host closed.'; a reason that ends in '?' or '.' keeps its own stop. */
const sentence = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.?!]$/.test(text) ? '' : '.'}`;

