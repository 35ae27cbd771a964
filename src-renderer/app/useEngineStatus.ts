/**
 * Keeps the shell's app info, engine status and connection current: one fetch at start, then status
 * events, with a slow poll as a fallback while the engine starts. The bridge reopens a closed
 * socket by itself; when it is back, the status is fetched at once (events were missed meanwhile).
 */
import { useEffect } from 'react';
import { CHANNELS, EVENTS } from '../../src-shared/ipc-contract';
import { call, subscribe } from '../ipc/client';
import { currentConnection, onDidChangeConnection } from '../ipc/connection';
import { useStudioStore } from '../store/store';

/** The fallback poll; also how often a host that went away is asked again. */
export const STATUS_POLL_MS = 5_000;

export function useEngineStatus(): void {
  const setAppInfo = useStudioStore((s) => s.setAppInfo);
  const setEngineStatus = useStudioStore((s) => s.setEngineStatus);
  const setConnection = useStudioStore((s) => s.setConnection);
  useEffect(() => {
    let stopped = false;
    const refresh = async () => {
      try {
        setAppInfo(await call(CHANNELS.info, {}));
        setEngineStatus(await call(CHANNELS.engineStatus, {}));
      } catch {
        // The bridge reports why (disconnected, signed out) through the connection state.
      }
    };
    setConnection(currentConnection());
    const offConnection = onDidChangeConnection((c) => {
      const wasConnected = useStudioStore.getState().connection.state === 'connected';
      setConnection(c);
      if (c.state === 'connected' && !wasConnected && !stopped) void refresh();
    });
    void refresh();
    const unsubscribe = subscribe(EVENTS.onDidChangeEngineStatus, (s) => setEngineStatus(s));
    const timer = setInterval(() => {
      if (!stopped) void refresh();
    }, STATUS_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
      unsubscribe();
      offConnection();
    };
  }, [setAppInfo, setEngineStatus, setConnection]);
}
