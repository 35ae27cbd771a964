/**
 * Desktop-only glue (renders nothing in a browser): listens for application-menu commands and
 * files dropped on the window, runs them (desktop-actions.ts) and shows the last notice.
 */
import { useEffect, useState } from 'react';
import { EVENTS } from '../../src-shared/ipc-contract';
import { isDesktopApp, subscribe } from '../ipc/client';
import { acceptDroppedFiles, runMenuCommand } from './desktop-actions';

export function DesktopBridge() {
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    if (!isDesktopApp()) return;
    const show = (p: Promise<string | null>) => void p.then((m) => m && setNotice(m));
    const offMenu = subscribe(EVENTS.onDidInvokeMenu, ({ command }) => show(runMenuCommand(command)));
    const offDrop = subscribe(EVENTS.onDidDropFiles, ({ files }) => show(acceptDroppedFiles(files)));
    return () => {
      offMenu();
      offDrop();
    };
  }, []);
  if (!notice) return null;
  return (
    <div className="notice" role="status" data-testid="desktop-notice">
      {notice} <button className="link" onClick={() => setNotice(null)}>Dismiss</button>
    </div>
  );
}
