/**
 * The renderer's connection to the studio host, as one state: connecting, connected, disconnected
 * (the host does not answer) or signed out (it answers, but no longer knows this browser's session:
 * it restarted). The bridge reports it here; the shell shows it and actions that need the host
 * read hostBlockedReason. The Electron window's bridge is the app's own IPC: always connected.
 */
import { Emitter } from '../../src-shared/emitter';

export type ConnectionState =
  | { state: 'connecting' }
  | { state: 'connected' }
  | { state: 'disconnected'; reason: string }
  | { state: 'signed-out'; reason: string };

/** What a browser whose session ended sees, and what the calls it makes fail with. */
export const SIGNED_OUT_MESSAGE =
  "this browser is signed out (the studio host restarted, which ends every browser's session); open the new sign-in link printed by the terminal that runs 'studio serve' (http://…/?token=…), in this tab or another, and this page reconnects by itself";

/**
 * Why an action that needs the host cannot run now, or null when it can. 'connecting' does not
 * block: the first call waits for the socket.
 */
export function hostBlockedReason(connection: ConnectionState): string | null {
  switch (connection.state) {
    case 'connecting':
    case 'connected':
      return null;
    case 'disconnected':
      return `Disconnected from the studio host (${connection.reason}); reconnecting by itself.`;
    case 'signed-out':
      return 'Signed out: open the new sign-in link printed by the terminal that runs studio serve.';
  }
}

/** The id of the shell's notice that says why; a button disabled for it points there (aria-describedby). */
export const CONNECTION_NOTICE_ID = 'connection-banner';

export function sameConnection(a: ConnectionState, b: ConnectionState): boolean {
  return a.state === b.state && ('reason' in a ? a.reason : null) === ('reason' in b ? b.reason : null);
}

let current: ConnectionState = { state: 'connecting' };
const changed = new Emitter<[ConnectionState]>();

export function currentConnection(): ConnectionState {
  return current;
}

/** Called by the bridge in client.ts; listeners hear only changes. */
export function reportConnection(next: ConnectionState): void {
  if (sameConnection(current, next)) return;
  current = next;
  changed.fire(next);
}

export const onDidChangeConnection = changed.event;
