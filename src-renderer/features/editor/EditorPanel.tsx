/**
 * The document editor area: SSML or plain-text mode, how SSML is read (dialect and strict or
 * lenient, beside the editor; stored in the project), the CodeMirror editor with the parser's
 * diagnostics, the warnings of the last check, and how many turns the document has; the editor's
 * lexicon previews a word in the current voice (shared-state/pronunciation-preview.ts).
 */
import { useMemo } from 'react';
import { SSML_DIALECTS, type SsmlDialect } from '../../../src-shared/synthesis';
import { useStudioStore } from '../../store/store';
import { SsmlEditor } from '../../components/SsmlEditor';
import { useSsmlValidation } from './useSsmlValidation';
import { speakableSavedVoices } from '../../components/voice-fit';
import { hostBlockedReason } from '../../ipc/connection';
import { PRONUNCIATION_PREVIEW, previewPronunciation } from '../../shared-state/pronunciation-preview';

const DIALECT_NAMES: Record<SsmlDialect, string> = { auto: 'Auto-detect', ssml11: 'W3C SSML 1.1', azure: 'Azure', google: 'Google Cloud', polly: 'Amazon Polly' };

function SsmlSettings() {
  const options = useStudioStore((s) => s.editorSsmlOptions);
  const check = useStudioStore((s) => s.ssmlCheck);
  const setOptions = useStudioStore((s) => s.setEditorSsmlOptions);
  const read = check.dialect ? `read as ${DIALECT_NAMES[check.dialect]}${check.dialectDetectedFrom ? ` (from ${check.dialectDetectedFrom})` : ''}` : '';
  return (
    <div className="ssml-settings" role="group" aria-label="SSML reading">
      <label>
        Dialect{' '}
        <select data-testid="ssml-dialect" value={options.dialect} onChange={(e) => setOptions({ dialect: e.target.value as SsmlDialect })}>
          {SSML_DIALECTS.map((d) => (
            <option key={d} value={d}>
              {DIALECT_NAMES[d]}
            </option>
          ))}
        </select>
      </label>{' '}
      <label title="Lenient: unknown markup and out-of-range values are dropped or clamped with a warning instead of blocking generation">
        <input type="checkbox" data-testid="ssml-lenient" checked={options.lenient} onChange={(e) => setOptions({ lenient: e.target.checked })} /> Lenient
      </label>{' '}
      <span className="muted" data-testid="ssml-dialect-read">
        {options.dialect === 'auto' ? read : ''}
      </span>
    </div>
  );
}

function SsmlWarnings() {
  const warnings = useStudioStore((s) => s.ssmlCheck.warnings);
  if (warnings.length === 0) return null;
  return (
    <details className="ssml-warnings" data-testid="ssml-warnings">
      <summary>
        {warnings.length} warning{warnings.length > 1 ? 's' : ''}
      </summary>
      <ul>
        {warnings.map((w, i) => (
          <li key={i}>
            Line {w.line}, column {w.column}: {w.message}
          </li>
        ))}
      </ul>
    </details>
  );
}

export function EditorPanel({ onSubmit }: { onSubmit(): void }) {
  useSsmlValidation();
  const text = useStudioStore((s) => s.editorText);
  const format = useStudioStore((s) => s.editorFormat);
  const diagnostics = useStudioStore((s) => s.diagnostics);
  const numTurns = useStudioStore((s) => s.numTurnsDetected);
  const voices = useStudioStore((s) => s.voices);
  const savedVoices = useStudioStore((s) => s.savedVoices);
  const modelInfo = useStudioStore((s) => s.modelInfo);
  const setText = useStudioStore((s) => s.setEditorText);
  const setFormat = useStudioStore((s) => s.setEditorFormat);
  const previewing = useStudioStore((s) => s.previewingVoice);
  const hostBlocked = useStudioStore((s) => hostBlockedReason(s.connection));
  const preview = {
    run: (ssml: string) => void previewPronunciation(ssml, (m) => useStudioStore.getState().setGenerateRefusal(m)),
    busy: previewing === PRONUNCIATION_PREVIEW,
    blocked: hostBlocked ?? (modelInfo ? null : 'Waiting for the engine to load a model.'),
  };
  // The speakers the loaded model can speak (its own and the saved voices that fit it); 'ryan' only until the engine reports.
  const names = useMemo(() => (modelInfo ? [...voices.map((v) => v.name), ...speakableSavedVoices(savedVoices, modelInfo).map((v) => v.name)] : ['ryan']), [modelInfo, voices, savedVoices]);
  return (
    <section className="panel editor-panel" aria-labelledby="editor-heading">
      <div className="panel-head">
        <h2 id="editor-heading">Document</h2>
        <div role="radiogroup" aria-label="Input format" className="segmented">
          <label>
            <input type="radio" name="format" checked={format === 'ssml'} onChange={() => setFormat('ssml')} /> SSML
          </label>
          <label>
            <input type="radio" name="format" checked={format === 'text'} onChange={() => setFormat('text')} /> Plain text
          </label>
        </div>
        {format === 'ssml' && <SsmlSettings />}
        <span className="muted" data-testid="turn-count">
          {format === 'ssml' ? (diagnostics.length ? `${diagnostics.length} problem${diagnostics.length > 1 ? 's' : ''}` : numTurns !== null ? `${numTurns} turn${numTurns === 1 ? '' : 's'}` : '') : 'one turn'}
        </span>
      </div>
      <SsmlEditor value={text} format={format} diagnostics={diagnostics} voiceNames={names} onChange={setText} onSubmit={onSubmit} preview={preview} />
      {format === 'ssml' && <SsmlWarnings />}
    </section>
  );
}
