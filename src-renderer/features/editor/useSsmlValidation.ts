/**
 * Validates the editor's SSML with the studio's parser (studio:ssml.validate), debounced, with
 * the same dialect, strictness and language that Generate sends, and puts the diagnostics, the
 * dialect read and the warnings in the store; plain-text mode has none.
 */
import { useEffect } from 'react';
import { CHANNELS } from '../../../src-shared/ipc-contract';
import { call } from '../../ipc/client';
import { useStudioStore } from '../../store/store';

export const VALIDATE_DELAY_MS = 300;

export function useSsmlValidation(delayMs = VALIDATE_DELAY_MS): void {
  const text = useStudioStore((s) => s.editorText);
  const format = useStudioStore((s) => s.editorFormat);
  const ssmlOptions = useStudioStore((s) => s.editorSsmlOptions);
  const language = useStudioStore((s) => s.voiceSettings.language);
  const setDiagnostics = useStudioStore((s) => s.setDiagnostics);
  useEffect(() => {
    if (format !== 'ssml') {
      setDiagnostics([], null);
      return;
    }
    let stale = false;
    const timer = setTimeout(() => {
      call(CHANNELS.validateSsml, { text, ssmlOptions, ...(language ? { language } : {}) })
        .then((r) => {
          if (stale) return;
          if (r.ok) setDiagnostics([], r.numTurns, { dialect: r.dialect ?? null, dialectDetectedFrom: r.dialectDetectedFrom ?? null, warnings: r.warnings ?? [] });
          else setDiagnostics(r.diagnostics, null);
        })
        .catch(() => {
          // the host is unreachable; the header shows that
        });
    }, delayMs);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [text, format, ssmlOptions, language, delayMs, setDiagnostics]);
}
