/**
 * Validates the editor's SSML with the studio's parser (studio:ssml.validate), debounced, and
 * puts the diagnostics in the store; plain-text mode has none.
 */
import { useEffect } from 'react';
import { CHANNELS } from '../../../src-shared/ipc-contract';
import { call } from '../../ipc/client';
import { useStudioStore } from '../../store/store';

export const VALIDATE_DELAY_MS = 300;

export function useSsmlValidation(delayMs = VALIDATE_DELAY_MS): void {
  const text = useStudioStore((s) => s.editorText);
  const format = useStudioStore((s) => s.editorFormat);
  const setDiagnostics = useStudioStore((s) => s.setDiagnostics);
  useEffect(() => {
    if (format !== 'ssml') {
      setDiagnostics([], null);
      return;
    }
    let stale = false;
    const timer = setTimeout(() => {
      call(CHANNELS.validateSsml, { text })
        .then((r) => {
          if (!stale) setDiagnostics(r.ok ? [] : r.diagnostics, r.ok ? r.numTurns : null);
        })
        .catch(() => {
          // the host is unreachable; the header shows that
        });
    }, delayMs);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [text, format, delayMs, setDiagnostics]);
}
