/**
 * The document editor area: SSML or plain-text mode, the CodeMirror editor with the parser's
 * diagnostics, and how many turns the document has.
 */
import { useStudioStore } from '../../store/store';
import { SsmlEditor } from '../../components/SsmlEditor';
import { useSsmlValidation } from './useSsmlValidation';

export function EditorPanel({ onSubmit }: { onSubmit(): void }) {
  useSsmlValidation();
  const text = useStudioStore((s) => s.editorText);
  const format = useStudioStore((s) => s.editorFormat);
  const diagnostics = useStudioStore((s) => s.diagnostics);
  const numTurns = useStudioStore((s) => s.numTurnsDetected);
  const voices = useStudioStore((s) => s.voices);
  const setText = useStudioStore((s) => s.setEditorText);
  const setFormat = useStudioStore((s) => s.setEditorFormat);
  const names = voices.length ? voices.map((v) => v.name) : ['ryan'];
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
        <span className="muted" data-testid="turn-count">
          {format === 'ssml' ? (diagnostics.length ? `${diagnostics.length} problem${diagnostics.length > 1 ? 's' : ''}` : numTurns !== null ? `${numTurns} turn${numTurns === 1 ? '' : 's'}` : '') : 'one turn'}
        </span>
      </div>
      <SsmlEditor value={text} format={format} diagnostics={diagnostics} voiceNames={names} onChange={setText} onSubmit={onSubmit} />
    </section>
  );
}
