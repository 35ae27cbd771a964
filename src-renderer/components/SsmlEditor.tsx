/**
 * The document editor: CodeMirror 6 with SSML (XML) highlighting and completion of elements and
 * attribute values, inline diagnostics at line:column, Mod-Enter to submit, and a toolbar to wrap
 * the selection in prosody, insert a break or change the voice; visual tuning of the selection (rate,
 * pitch, volume, emphasis, pauses: ProsodyPanel) and pronunciations (PronunciationPanel) write standard
 * SSML, shown as marks in the text (ssml-marks.ts); light or dark colours that meet WCAG AA follow the
 * page's scheme (ssml-editor-theme.ts). Store-agnostic.
 */
import { useEffect, useRef, useState } from 'react';
import { EditorView, basicSetup } from 'codemirror';
import { Compartment, EditorState, Prec } from '@codemirror/state';
import { keymap } from '@codemirror/view';
import { xml } from '@codemirror/lang-xml';
import { setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { ssmlElements } from './ssml-schema';
import { ssmlEditorTheme } from './ssml-editor-theme';
import { useColourScheme } from './useColourScheme';
import { ssmlMarks } from './ssml-marks';
import { ProsodyPanel, type EditMaker } from './ProsodyPanel';
import { PronunciationPanel, type PronunciationPreview } from './PronunciationPanel';

export interface EditorDiagnostic {
  line: number;
  column: number;
  message: string;
}

/**
 * A diagnostic's message without the position the studio's errors start with ("SSML 4:9: …"): the
 * list says "Line 4, column 9:" and the underline marks the place, so the prefix would say it twice.
 */
export function diagnosticMessage(d: EditorDiagnostic): string {
  return d.message.replace(/^SSML \d+:\d+:\s*/, '');
}

export interface SsmlEditorProps {
  value: string;
  format: 'text' | 'ssml';
  diagnostics: EditorDiagnostic[];
  voiceNames: string[];
  onChange(text: string): void;
  onSubmit(): void;
  /** How the lexicon editor previews a word; absent: no preview here. */
  preview?: PronunciationPreview;
}

/**
 * Marks from the diagnostic's column to the end of its line. Parsers report the position after the
 * offending token, often one past the line's end ("4:9" on the 8-character "</speak>"); a range
 * there would be empty, and CodeMirror draws an empty diagnostic as a point widget instead of an
 * underline, so such a diagnostic marks the line's text instead. Only an empty line gives a point.
 */
function toCmDiagnostics(state: EditorState, list: EditorDiagnostic[]): Diagnostic[] {
  return list.map((d) => {
    const line = state.doc.line(Math.max(1, Math.min(state.doc.lines, d.line)));
    let from = Math.min(line.to, line.from + Math.max(0, d.column - 1));
    if (from >= line.to) from = line.from + (line.text.length - line.text.trimStart().length);
    if (from >= line.to) from = line.from;
    return { from, to: line.to, severity: 'error', message: `Line ${d.line}, column ${d.column}: ${diagnosticMessage(d)}` };
  });
}

export function SsmlEditor(props: SsmlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const language = useRef(new Compartment());
  const theme = useRef(new Compartment());
  const scheme = useColourScheme();
  const latest = useRef(props);
  latest.current = props;
  const [pickedVoice, setVoice] = useState(props.voiceNames[0] ?? '');
  // The pick, while the model can still speak it (the list follows the loaded model).
  const voice = props.voiceNames.includes(pickedVoice) ? pickedVoice : (props.voiceNames[0] ?? '');
  const [selection, setSelection] = useState({ from: 0, to: 0 });

  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: latest.current.value,
        extensions: [
          Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (latest.current.onSubmit(), true) }])),
          basicSetup,
          theme.current.of(ssmlEditorTheme(scheme)),
          language.current.of(latest.current.format === 'ssml' ? xml({ elements: ssmlElements(latest.current.voiceNames) }) : []),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': 'Document text', 'data-testid': 'editor-content' }),
          ssmlMarks(),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) latest.current.onChange(u.state.doc.toString());
            if (u.docChanged || u.selectionSet) setSelection({ from: u.state.selection.main.from, to: u.state.selection.main.to });
          }),
        ],
      }),
    });
    view.current = v;
    return () => v.destroy();
    // Made once; the theme and the language follow through their compartments below.
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: theme.current.reconfigure(ssmlEditorTheme(scheme)) });
  }, [scheme]);

  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== props.value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: props.value } });
  }, [props.value]);

  useEffect(() => {
    view.current?.dispatch({ effects: language.current.reconfigure(props.format === 'ssml' ? xml({ elements: ssmlElements(props.voiceNames) }) : []) });
  }, [props.format, props.voiceNames]);

  useEffect(() => {
    const v = view.current;
    if (v) v.dispatch(setDiagnostics(v.state, toCmDiagnostics(v.state, props.diagnostics)));
  }, [props.diagnostics]);

  const wrap = (open: string, close: string) => {
    const v = view.current;
    if (!v) return;
    const { from, to } = v.state.selection.main;
    const text = v.state.sliceDoc(from, to);
    v.dispatch({ changes: { from, to, insert: `${open}${text}${close}` }, selection: { anchor: from + open.length, head: from + open.length + text.length } });
    v.focus();
  };
  const insert = (text: string) => {
    const v = view.current;
    if (!v) return;
    const { to } = v.state.selection.main;
    v.dispatch({ changes: { from: to, insert: text }, selection: { anchor: to + text.length } });
    v.focus();
  };
  const ssml = props.format === 'ssml';
  /** Applies an edit of the whole document (one undo step) and says what happened, or why it could not. */
  const applyEdit = (make: EditMaker, done: string): string => {
    const v = view.current;
    if (!v) return 'The editor is not ready.';
    const { from, to } = v.state.selection.main;
    const result = make(v.state.doc.toString(), from, to);
    if (typeof result === 'string') return result;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: result.text }, selection: { anchor: result.anchor, head: result.head } });
    v.focus();
    return result.note ? `${done} ${result.note}` : done;
  };
  const blocked = ssml ? null : 'Switch to SSML to tune.';

  return (
    <div className="ssml-editor">
      <div className="toolbar" role="toolbar" aria-label="SSML tools">
        <button disabled={!ssml} onClick={() => wrap('<prosody rate="90%" pitch="+0st">', '</prosody>')}>Wrap in prosody</button>
        <button disabled={!ssml} onClick={() => insert('<break time="300ms"/>')}>Insert break</button>
        <label>
          Voice{' '}
          <select aria-label="Voice for the selection" value={voice} disabled={!ssml || props.voiceNames.length === 0} onChange={(e) => setVoice(e.target.value)}>
            {props.voiceNames.map((n) => (
              <option key={n} value={n}>{n}</option>
            ))}
          </select>
        </label>
        <button disabled={!ssml || voice === ''} onClick={() => wrap(`<voice name="${voice}">`, '</voice>')}>Change voice</button>
      </div>
      <ProsodyPanel blocked={blocked} apply={applyEdit} />
      <div ref={host} className="editor-host" data-testid="ssml-editor" />
      {props.diagnostics.length > 0 && (
        <ul className="diagnostics" role="alert" aria-label="SSML problems" data-testid="ssml-diagnostics">
          {props.diagnostics.map((d, i) => (
            <li key={i} className="error">
              Line {d.line}, column {d.column}: {diagnosticMessage(d)}
            </li>
          ))}
        </ul>
      )}
      <PronunciationPanel blocked={blocked && 'Switch to SSML to give words a pronunciation.'} doc={props.value} selection={selection} apply={applyEdit} preview={props.preview} />
    </div>
  );
}
