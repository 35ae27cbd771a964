/**
 * Keeps the shell's app info and engine status current: one fetch at start, then status events,
 * with a slow poll as a fallback while the engine starts.
 */
import { useEffect } from 'react';
import { CHANNELS, EVENTS } from '../../src-shared/ipc-contract';
import { call, subscribe } from '../ipc/client';
import { useStudioStore } from '../store/store';

export function useEngineStatus(): void {
  const setAppInfo = useStudioStore((s) => s.setAppInfo);
  const setEngineStatus = useStudioStore((s) => s.setEngineStatus);
  const setConnectionError = useStudioStore((s) => s.setConnectionError);
  useEffect(() => {
    let stopped = false;
    const refresh = async () => {
      try {
        setAppInfo(await call(CHANNELS.info, {}));
        setEngineStatus(await call(CHANNELS.engineStatus, {}));
        setConnectionError(null);
      } catch (err) {
        setConnectionError((err as Error).message);
      }
    };
    void refresh();
    const unsubscribe = subscribe(EVENTS.onDidChangeEngineStatus, (s) => setEngineStatus(s));
    const timer = setInterval(() => {
      if (!stopped) void refresh();
    }, 5_000);
    return () => {
      stopped = true;
      clearInterval(timer);
      unsubscribe();
    };
  }, [setAppInfo, setEngineStatus, setConnectionError]);
}
