/**
 * The editor's document: the text, whether it is SSML or plain text, and the diagnostics the
 * studio's SSML parser reported for it.
 */
import type { StateCreator } from 'zustand';
import type { SsmlDiagnostic } from '../../../src-shared/contract/projects';

export const DEFAULT_DOCUMENT = `<speak>
  <voice name="ryan">Welcome to the studio. This is the first turn.</voice>
  <break time="300ms"/>
  <voice name="vivian"><prosody rate="90%">And this is the second turn.</prosody></voice>
</speak>
`;

export interface EditorSlice {
  editorText: string;
  editorFormat: 'text' | 'ssml';
  diagnostics: SsmlDiagnostic[];
  /** Turns the parser found in the last valid document. */
  numTurnsDetected: number | null;
  setEditorText(text: string): void;
  setEditorFormat(format: 'text' | 'ssml'): void;
  setDiagnostics(diagnostics: SsmlDiagnostic[], numTurns: number | null): void;
}

export const createEditorSlice: StateCreator<EditorSlice, [], [], EditorSlice> = (set) => ({
  editorText: DEFAULT_DOCUMENT,
  editorFormat: 'ssml',
  diagnostics: [],
  numTurnsDetected: null,
  setEditorText: (editorText) => set({ editorText }),
  setEditorFormat: (editorFormat) => set({ editorFormat, diagnostics: [] }),
  setDiagnostics: (diagnostics, numTurnsDetected) => set({ diagnostics, numTurnsDetected }),
});
